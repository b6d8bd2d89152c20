import Foundation
import Testing
import TestSupport
@testable import AdminPanel

/// `/static/` is answered on the server's event loop: the answer must be the one the
/// middlewares would give — every security header, in the same order — and the unusual cases
/// must still get the panel's own answers.
@Suite(.awaitsTeardown) struct StaticFastPathTests {
    static func withoutDate(_ response: RawResponse) -> [String] {
        response.headers.filter { $0.0 != "Date" }.map { "\($0.0): \($0.1)" }
    }

    @Test func staticAnswersMatchTheMiddlewarePath() async throws {
        var options = PanelHarness.Options(live: true)   // the fast path is the connection's
        options.signIn = true   // assets need no session either way
        let harness = try await PanelHarness.start(options)
        Teardown.add { await harness.stop() }
        let browser = harness.browser
        // `%61` spells `a`: the same file through the ordinary route and its middlewares.
        let fast = try await browser.get("/static/app.css")
        let ordinary = try await browser.get("/static/%61pp.css")
        #expect(fast.status == 200 && ordinary.status == 200)
        #expect(Self.withoutDate(fast) == Self.withoutDate(ordinary))
        #expect(fast.body == ordinary.body && !fast.body.isEmpty)
        for name in ["Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options",
                     "Cross-Origin-Opener-Policy", "Permissions-Policy", "ETag", "Cache-Control", "Date"] {
            #expect(fast.header(name) != nil, "\(name)")
        }
        #expect(fast.header("Strict-Transport-Security") == nil)   // plain HTTP
        let etag = try #require(fast.header("ETag"))
        let fastCached = try await browser.get("/static/app.css", headers: [("If-None-Match", etag)])
        let ordinaryCached = try await browser.get("/static/%61pp.css", headers: [("If-None-Match", etag)])
        #expect(fastCached.status == 304 && ordinaryCached.status == 304)
        #expect(Self.withoutDate(fastCached) == Self.withoutDate(ordinaryCached))
        // A missing asset goes the ordinary way: its 404 carries the security headers.
        let missing = try await browser.get("/static/missing.css")
        #expect(missing.status == 404)
        #expect(missing.header("Content-Security-Policy") != nil)
    }
}
