import Foundation
import Testing
import TestSupport
import OpenMarketCore
import HTTPServer
@testable import AdminPanel

/// People, roles, setup and invitations over real sockets (docs/lan-console.md, "People and roles").
@Suite(.awaitsTeardown) struct PeopleRouteTests {
    @Test func setupInviteSignInAndRoles() async throws {
        let harness = try await PanelHarness.start(.init(signIn: true))
        Teardown.add { await harness.stop() }
        // Before setup: everything leads to the sign-in page, which says there is no owner yet.
        let blocked = try await harness.browser.get("/products/new")
        #expect(blocked.status == 303 && blocked.header("Location") == "/login?next=%2Fproducts%2Fnew")
        #expect(try await harness.browser.get("/login").text.contains(Localizer.english("login_no_owner")))
        #expect(try await harness.browser.get("/setup/" + String(repeating: "0", count: 32)).status == 404)

        let setup = try #require(harness.panel.setupPath)
        let form = try await harness.browser.get(setup)
        let token = try #require(form.inputValue("csrf_token"))
        // Bad input is shown next to its field, the name kept.
        let bad = try await harness.browser.post(setup, form: [("csrf_token", token), ("name", "boss"), ("password", "boss"),
                                                               ("password_confirm", "boss")])
        #expect(bad.status == 422)
        #expect(bad.text.contains("id=\"password-error\"") && bad.inputValue("name") == "boss")
        try await harness.setUpOwner("boss")
        #expect(try await harness.browser.get(setup).status == 404)
        #expect(try await harness.browser.get("/products").status == 200)

        let editorLink = try await harness.invite("Mina", role: "editor")
        let viewerLink = try await harness.invite("Jun", role: "viewer")
        #expect(try await harness.browser.get("/people").text.contains("data-person=\"Mina\""))
        let taken = try await harness.browser.post("/people", form: [("csrf_token", try await harness.csrfToken(from: "/people")),
                                                                     ("name", "mina"), ("role", "viewer")])
        #expect(taken.status == 422 && taken.text.contains("id=\"invite-name-error\""))

        let editor = harness.newBrowser()
        try await harness.accept(editorLink, password: "mina-password-1", in: editor)
        #expect(try await editor.get(editorLink).status == 404)   // one-time
        let registerToken = try #require(try await editor.get("/products/new").inputValue("csrf_token"))
        let created = try await editor.postMultipart("/products", fields: RegisterRouteTests.fields(registerToken), files: [
            .init(filename: "a.png", type: "image/png", data: TestImages.png())])
        #expect(created.status == 303)
        let id = try #require(created.header("Location").flatMap { Int($0.split(separator: "/").last ?? "") })
        #expect(try await editor.get("/people").status == 403)

        let viewer = harness.newBrowser()
        try await harness.accept(viewerLink, password: "jun-password-1", in: viewer)
        let detail = try await viewer.get("/products/\(id)")
        #expect(detail.status == 200)
        for control in ["/edit\"", "data-delete-dialog", "href=\"/products/new\"", "type=\"checkbox\"", "<form method=\"post\" action=\"/products"] {
            #expect(!detail.text.contains(control), "viewer sees \(control)")
        }
        #expect(!(try await viewer.get("/products")).text.contains("href=\"/products/new\""))
        for path in ["/products/new", "/products/\(id)/edit", "/products/\(id)/delete", "/people"] {
            #expect(try await viewer.get(path).status == 403, "\(path)")
        }
        let viewerToken = try #require(detail.inputValue("csrf_token"))
        #expect(try await viewer.post("/products/\(id)/delete", form: [("csrf_token", viewerToken), ("password", harness.demoSecret)]).status == 403)
        #expect(try await viewer.post("/people", form: [("csrf_token", viewerToken), ("name", "x1"), ("role", "owner")]).status == 403)
        #expect(try await harness.api.product(id: id).id == id)

        // The last owner can be neither demoted nor disabled.
        let peopleToken = try await harness.csrfToken(from: "/people")
        #expect(try await harness.browser.post("/people/boss/role", form: [("csrf_token", peopleToken), ("role", "editor")]).status == 422)
        #expect(try await harness.browser.post("/people/boss/disable", form: [("csrf_token", peopleToken)]).status == 422)
        // Role change takes effect at the next request; disable signs out everywhere.
        #expect(try await harness.browser.post("/people/Jun/role", form: [("csrf_token", peopleToken), ("role", "editor")]).status == 303)
        #expect(try await viewer.get("/products/new").status == 200)
        #expect(try await harness.browser.post("/people/Mina/disable", form: [("csrf_token", peopleToken)]).status == 303)
        let out = try await editor.get("/products")
        #expect(out.status == 303 && out.header("Location")?.hasPrefix("/login") == true)
        #expect(try await harness.signIn(editor, name: "Mina", password: "mina-password-1").status == 403)
        // Reset: a new link; the old password stops working.
        let reset = try await harness.browser.post("/people/Jun/reset", form: [("csrf_token", peopleToken)])
        #expect(reset.status == 200)
        let resetURL = try #require(PanelHarness.invitationURL(in: reset.text))
        let resetLink = String(resetURL[try #require(resetURL.range(of: "/invite/")).lowerBound...])
        #expect(try await viewer.get("/products").status == 303)
        #expect(try await harness.signIn(harness.newBrowser(), name: "Jun", password: "jun-password-1").status == 403)
        try await harness.accept(resetLink, password: "jun-password-2", in: viewer)
        #expect(try await viewer.get("/products").status == 200)

        let actions = try await harness.panel.app.stores.activity.list(.init(), page: 1).rows.map(\.entry.action)
        for action in ["sign-in", "sign-in-failed", "register", "person-invited", "role-changed", "person-disabled"] {
            #expect(actions.contains(action), "\(action)")
        }
    }

    @Test func signInLimitsAnswer429WithRetryAfterAndUnknownNamesLookTheSame() async throws {
        let harness = try await PanelHarness.start(.init(signIn: true))
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner("boss")
        let guesser = harness.newBrowser()
        let unknown = try await harness.signIn(guesser, name: "nobody", password: "wrong-password")
        let wrong = try await harness.signIn(guesser, name: "boss", password: "wrong-password")
        #expect(unknown.status == 403 && wrong.status == 403)
        func alert(_ page: RawResponse) -> String? {
            page.text.range(of: "role=\"alert\"").map { String(page.text[$0.upperBound...].prefix(80)) }
        }
        #expect(alert(unknown) == alert(wrong))
        for _ in 0..<4 { _ = try await harness.signIn(guesser, name: "boss", password: "wrong-password") }
        // Five wrong for this name: now even the right password waits.
        let locked = try await harness.signIn(guesser, name: "BOSS", password: PanelHarness.ownerPassword)
        #expect(locked.status == 429)
        let wait = try #require(locked.header("Retry-After").flatMap { Int($0) })
        #expect(wait > 800 && wait <= 900)
        // Per address: 20 wrong in all (5 used above, one of them "nobody"), whatever the names.
        var statuses: [Int] = []
        for index in 0..<16 { statuses.append(try await harness.signIn(guesser, name: "name\(index)", password: "x-wrong-123").status) }
        #expect(statuses.prefix(14).allSatisfy { $0 == 403 } && statuses.suffix(2).allSatisfy { $0 == 429 })
        harness.clock.advance(901)
        #expect(try await harness.signIn(guesser, name: "boss", password: PanelHarness.ownerPassword).status == 303)
        // Only rows of known names carry a name: what is typed as a name may be a password.
        let failed = try await harness.panel.app.stores.activity.list(.init(action: "sign-in-failed"), page: 1).rows
        #expect(Set(failed.map(\.entry.person)) == ["", "boss"])
    }

    @Test func accountChangesPasswordAndEndsSessions() async throws {
        let harness = try await PanelHarness.start(.init(signIn: true))
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner("boss")
        let laptop = harness.newBrowser()
        #expect(try await harness.signIn(laptop, name: "boss", password: PanelHarness.ownerPassword).status == 303)
        let account = try await harness.browser.get("/account")
        #expect(account.count(of: "<li data-session") == 2 && account.count(of: "data-current-session") == 1)
        let token = try #require(account.inputValue("csrf_token"))
        let short = try await harness.browser.post("/account/password", form: [("csrf_token", token), ("current_password", PanelHarness.ownerPassword),
                                                                              ("password", "short"), ("password_confirm", "short")])
        #expect(short.status == 422 && short.text.contains("id=\"password-error\""))
        let wrongCurrent = try await harness.browser.post("/account/password", form: [("csrf_token", token), ("current_password", "not-it-at-all"),
                                                                                     ("password", "new-password-22"), ("password_confirm", "new-password-22")])
        #expect(wrongCurrent.status == 422 && wrongCurrent.text.contains("id=\"current_password-error\""))
        let changed = try await harness.browser.post("/account/password", form: [("csrf_token", token), ("current_password", PanelHarness.ownerPassword),
                                                                                ("password", "new-password-22"), ("password_confirm", "new-password-22")])
        #expect(changed.status == 303)
        #expect(try await laptop.get("/products").status == 303)        // other sessions ended
        #expect(try await harness.browser.get("/products").status == 200)
        #expect(try await harness.signIn(harness.newBrowser(), name: "boss", password: "new-password-22").status == 303)
        // Revoke one session from the list, then all others.
        let list = try await harness.browser.get("/account")
        #expect(list.count(of: "<li data-session") == 2)
        let other = try #require(list.text.components(separatedBy: "<li data-session").dropFirst().first { !$0.hasPrefix(" data-current-session") })
        let handle = try #require(other.range(of: "/account/sessions/").map { String(other[$0.upperBound...].prefix(16)) })
        #expect(try await harness.browser.post("/account/sessions/\(handle)/revoke", form: [("csrf_token", token)]).status == 303)
        #expect(try await harness.browser.get("/account").count(of: "<li data-session") == 1)
        #expect(try await harness.signIn(laptop, name: "boss", password: "new-password-22").status == 303)
        let others = try await harness.browser.post("/account/sessions/others/revoke", form: [("csrf_token", token)])
        #expect(others.status == 303)
        #expect(try await laptop.get("/products").status == 303)
        let actions = try await harness.panel.app.stores.activity.list(.init(person: "boss"), page: 1).rows.map(\.entry.action)
        #expect(actions.contains("password-changed") && actions.contains("session-revoked"))
    }

    @Test func accessCodeIsRetiredAndSignInIsASwitch() throws {
        #expect(throws: LaunchOptions.Problem.self) { _ = try LaunchOptions.parse(["--access-code", "abcdefgh"], environment: [:]) }
        #expect(throws: LaunchOptions.Problem.self) { _ = try LaunchOptions.parse([], environment: ["OPENMARKET_ACCESS_CODE": "abcdefgh"]) }
        #expect(try LaunchOptions.parse(["--sign-in"], environment: [:]).signIn)
        #expect(try LaunchOptions.parse(["--sign-in", "--port", "9000"], environment: [:]).port == 9000)
        #expect(try LaunchOptions.parse([], environment: ["OPENMARKET_SIGN_IN": "1"]).signIn)
        #expect(try !LaunchOptions.parse([], environment: [:]).signIn)
        #expect(throws: LaunchOptions.Problem.self) { _ = try LaunchOptions.parse([], environment: ["OPENMARKET_SIGN_IN": "maybe"]) }
    }

    @Test func offByDefaultOnLoopbackEveryoneIsLocal() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        #expect(try await harness.browser.get("/products").status == 200)
        #expect(try await harness.browser.get("/login").status == 303)
        #expect(harness.panel.setupPath == nil)
        #expect(try await harness.browser.get("/people").status == 200)
        #expect(try await harness.browser.get("/account").status == 200)
    }
}

extension Localizer {
    static func english(_ key: String) -> String {
        let stringCatalogs = try! StringCatalogs(directory: PanelHarness.repository.appendingPathComponent("Templates/strings"))
        return Localizer(catalog: stringCatalogs[.en])(key)
    }
}
