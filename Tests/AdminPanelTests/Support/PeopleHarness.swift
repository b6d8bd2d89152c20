import Foundation
import TestSupport
@testable import AdminPanel

/// Sign-in flows the people tests share: setup, invitations, signing in.
extension PanelHarness {
    static let ownerPassword = "owner-password-1"

    /// A browser of its own on this panel (its own cookies).
    func newBrowser() -> TestBrowser { browser.fresh() }

    /// Uses the printed setup link; `browser` ends up signed in as the owner.
    func setUpOwner(_ name: String = "owner", password: String = PanelHarness.ownerPassword) async throws {
        guard let path = panel.setupPath else { throw TestClientFailure(description: "no setup link") }
        let form = try await browser.get(path)
        guard form.status == 200, let token = form.inputValue("csrf_token") else {
            throw TestClientFailure(description: "setup form: \(form.status)")
        }
        let done = try await browser.post(path, form: [("csrf_token", token), ("name", name), ("password", password),
                                                       ("password_confirm", password)])
        guard done.status == 303 else { throw TestClientFailure(description: "setup: \(done.status)") }
    }

    /// As the signed-in owner (`browser`): invites `name` and answers the link's path.
    func invite(_ name: String, role: String) async throws -> String {
        let token = try await csrfToken(from: "/people")
        let answer = try await browser.post("/people", form: [("csrf_token", token), ("name", name), ("role", role)])
        guard answer.status == 200, let url = answer.inputValue("data-invitation-url") ?? Self.invitationURL(in: answer.text),
              let range = url.range(of: "/invite/") else {
            throw TestClientFailure(description: "invite \(name): \(answer.status)")
        }
        return String(url[range.lowerBound...])
    }

    static func invitationURL(in page: String) -> String? {
        guard let start = page.range(of: "value=\"http"), let end = page[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return "http" + page[start.upperBound..<end]
    }

    /// Accepts an invitation in `other` (which is then signed in as that person).
    func accept(_ path: String, password: String, in other: TestBrowser) async throws {
        let form = try await other.get(path)
        guard form.status == 200, let token = form.inputValue("csrf_token") else {
            throw TestClientFailure(description: "invitation form: \(form.status)")
        }
        let done = try await other.post(path, form: [("csrf_token", token), ("password", password), ("password_confirm", password)])
        guard done.status == 303 else { throw TestClientFailure(description: "accept: \(done.status)") }
    }

    /// Signs `other` in; answers the POST's response.
    @discardableResult
    func signIn(_ other: TestBrowser, name: String, password: String) async throws -> RawResponse {
        let page = try await other.get("/login")
        let token = page.inputValue("csrf_token") ?? ""
        return try await other.post("/login", form: [("csrf_token", token), ("name", name), ("password", password),
                                                     ("next", "/products")])
    }

    /// A second panel on the same DATA and sandbox, as after a restart (the first one is stopped),
    /// on the harness's tier.
    func restartPanel() async throws -> (any RunningPanel, TestBrowser) {
        await panel.shutdown()
        let (again, moved) = try anotherPanel()
        for (name, value) in browser.cookies { moved.setCookie(name, value) }
        return (again, moved)
    }
}
