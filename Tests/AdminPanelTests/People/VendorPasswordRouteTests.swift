import Foundation
import TestSupport
import Testing
@testable import AdminPanel

/// The vendor password on the account page: owners only, after their own password again; never
/// in a page otherwise, never in the activity row that records the view.
@Suite(.awaitsTeardown) struct VendorPasswordRouteTests {
    @Test func anOwnerSeesItAfterTypingTheirOwnPasswordAgain() async throws {
        let harness = try await PanelHarness.start(.init(signIn: true))
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner("boss")
        let account = try await harness.browser.get("/account")
        #expect(account.text.contains("action=\"/account/vendor-password\""))
        #expect(!account.text.contains(harness.demoSecret))
        let token = try #require(account.inputValue("csrf_token"))

        let wrong = try await harness.browser.post("/account/vendor-password", form: [("csrf_token", token), ("current_password", "not-my-password")])
        #expect(wrong.status == 422)
        #expect(wrong.text.contains("vendor_current_password-error"))
        #expect(!wrong.text.contains(harness.demoSecret))

        let shown = try await harness.browser.post("/account/vendor-password", form: [("csrf_token", token),
                                                                                       ("current_password", PanelHarness.ownerPassword)])
        #expect(shown.status == 200)
        #expect(shown.text.contains("value=\"\(harness.demoSecret)\" readonly data-vendor-password-value"))
        #expect(shown.header("Cache-Control") == "no-store")
        // The next page shows it no more.
        #expect(!(try await harness.browser.get("/account")).text.contains(harness.demoSecret))
        let rows = try await harness.panel.app.stores.activity.list(.init(action: "vendor-password-viewed"), page: 1).rows
        #expect(rows.count == 1)
        let detail = rows.first?.entry.detail ?? ""
        #expect(detail.contains(harness.demoSecret) == false)
    }

    @Test func editorsAndViewersNeitherSeeTheFormNorGetThePassword() async throws {
        let harness = try await PanelHarness.start(.init(signIn: true))
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner("boss")
        let link = try await harness.invite("Mina", role: "editor")
        let editor = harness.newBrowser()
        try await harness.accept(link, password: "mina-password-1", in: editor)
        let account = try await editor.get("/account")
        #expect(!account.text.contains("/account/vendor-password"))
        let token = try #require(account.inputValue("csrf_token"))
        let refused = try await editor.post("/account/vendor-password", form: [("csrf_token", token), ("current_password", "mina-password-1")])
        #expect(refused.status == 403)
        #expect(!refused.text.contains(harness.demoSecret))
        // The delete dialog tells the editor whom to ask.
        let product = try await harness.makeProduct()
        let detail = try await editor.get("/products/\(product.id)")
        #expect(detail.text.contains("data-ask-owner"))
        #expect(detail.text.contains("ask an owner (boss)"))
        #expect(detail.text.contains("data-stop-selling"))
    }

    @Test func wrongPasswordsHereCountTowardTheSignInLimit() async throws {
        let harness = try await PanelHarness.start(.init(signIn: true))
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner("boss")
        let token = try await harness.csrfToken(from: "/account")
        var statuses: [Int] = []
        for _ in 0..<6 {
            statuses.append(try await harness.browser.post("/account/vendor-password",
                                                           form: [("csrf_token", token), ("current_password", "guess-guess-1")]).status)
        }
        #expect(statuses.last == 429)
        let locked = try await harness.browser.post("/account/vendor-password", form: [("csrf_token", token),
                                                                                        ("current_password", PanelHarness.ownerPassword)])
        #expect(locked.status == 429 && !locked.text.contains(harness.demoSecret))
    }
}
