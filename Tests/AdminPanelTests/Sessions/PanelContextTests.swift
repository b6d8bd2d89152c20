import Foundation
import Testing
import TestSupport
import HTTPServer
@testable import AdminPanel

/// One request, one identity: the session is looked up once, whatever the page asks of it.
@Suite(.awaitsTeardown) struct PanelContextTests {
    @Test func aSignedInPageLooksItsSessionUpOnce() async throws {
        let harness = try await PanelHarness.start(.init(signIn: true))
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner("boss")
        let sessions = harness.panel.app.stores.sessions
        for path in ["/products", "/products/new", "/people", "/activity", "/account"] {
            let before = await sessions.lookups
            let page = try await harness.browser.get(path)
            #expect(page.status == 200, "\(path)")
            #expect(await sessions.lookups - before == 1, "\(path)")
        }
        // A form post: the CSRF check and the role check share the one lookup too.
        let token = try await harness.csrfToken(from: "/people")
        let before = await sessions.lookups
        let refused = try await harness.browser.post("/people", form: [("csrf_token", token), ("name", "x"), ("role", "nobody")])
        #expect(refused.status >= 400 && refused.status < 500)
        #expect(await sessions.lookups - before == 1)
        // Signed out: one lookup, then the sign-in page.
        let stranger = harness.newBrowser()
        let start = await sessions.lookups
        let out = try await stranger.get("/products")
        #expect(out.status == 303 && out.header("Location") == "/login")
        #expect(await sessions.lookups - start == 1)
    }
}
