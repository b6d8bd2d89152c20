import Foundation
import Testing
import TestSupport
@testable import AdminPanel

/// DNS rebinding over real sockets: a page that points its own name at the panel gets nothing.
@Suite(.awaitsTeardown) struct HostRouteTests {
    @Test func rebindingSequenceIsRefused() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let port = harness.browser.port
        let rebound = harness.newBrowser()
        rebound.host = "evil.example:\(port)"
        rebound.origin = "http://evil.example:\(port)"
        // Step 1 of the attack: read a form (and its CSRF token) under the foreign name.
        let form = try await rebound.get("/products/new")
        #expect(form.status == 421)
        #expect(form.text.contains("--allowed-host"))
        #expect(form.inputValue("csrf_token") == nil)
        #expect(form.headers("Set-Cookie").isEmpty)
        for path in ["/healthz", "/products", "/static/app.css"] {
            #expect(try await rebound.get(path).status == 421, "\(path)")
        }
        // Step 2: even with a token obtained legitimately, a post under the foreign name fails…
        let token = try await harness.csrfToken(from: "/products/new")
        for (name, value) in harness.browser.cookies { rebound.setCookie(name, value) }
        let posted = try await rebound.postMultipart("/products", fields: RegisterRouteTests.fields(token), files: [
            .init(filename: "one.png", type: "image/png", data: TestImages.png(seed: 1)),
        ])
        #expect(posted.status == 421)
        // …and so does one sent to the right Host from the foreign origin (Origin is checked
        // against the panel's names, not against the Host header).
        harness.browser.origin = "http://evil.example:\(port)"
        let crossSite = try await harness.browser.postMultipart("/products", fields: RegisterRouteTests.fields(token), files: [
            .init(filename: "one.png", type: "image/png", data: TestImages.png(seed: 1)),
        ])
        #expect(crossSite.status == 403)
        harness.browser.origin = "null"
        #expect(try await harness.browser.post("/logout", form: [("csrf_token", token)]).status == 403)
        #expect(try await harness.api.listProducts(page: 1, itemsPerPage: 10).totalCount == 0)
        // The panel's other own names work, with an Origin of any own name.
        let local = harness.newBrowser()
        local.host = "localhost:\(port)"
        local.origin = "http://[::1]:\(port)"
        #expect(try await local.get("/healthz").status == 200)
        let localToken = try #require(try await local.get("/products/new").inputValue("csrf_token"))
        let registered = try await local.postMultipart("/products", fields: RegisterRouteTests.fields(localToken), files: [
            .init(filename: "one.png", type: "image/png", data: TestImages.png(seed: 1)),
        ])
        #expect(registered.status == 303)
    }
}
