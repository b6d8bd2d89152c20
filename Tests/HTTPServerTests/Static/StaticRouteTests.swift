import Foundation
import NetworkIO
import Testing
import TestSupport
@testable import HTTPServer

/// The synchronous static path (`Router.staticFiles`): the same bytes as the ordinary route
/// through the middlewares, without running them, and the ordinary route for anything unusual.
@Suite(.serialized, .awaitsTeardown) struct StaticRouteTests {
    /// What a middleware adds, done both ways: as a middleware and as the route's `decorate`.
    static func addHeaders(_ response: inout HTTPResponse) {
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"   // moved after the one StaticFiles set
        if response.headers["Cache-Control"] == nil { response.headers["Cache-Control"] = "no-store" }
    }

    /// Counts the requests that went through the middlewares.
    static func router(_ tree: StaticTree, middlewareRuns: Locked<Int>) throws -> Router<BasicRequestContext> {
        var router = Router()
        router.use { request, next in
            middlewareRuns.withLock { $0 += 1 }
            var response = try await next(request)
            addHeaders(&response)
            return response
        }
        router.staticFiles(prefix: "/static/", files: try StaticFiles(root: tree.root),
                           admitsHost: { $0 == "panel" }, decorate: { addHeaders(&$0) })
        return router
    }

    static func withoutDate(_ response: RawResponse) -> [String] {
        response.headers.filter { $0.0 != "Date" }.map { "\($0.0): \($0.1)" }
    }

    @Test func sendsWhatTheMiddlewarePathSendsWithoutRunningIt() async throws {
        let tree = try StaticTree()
        let runs = Locked(0)
        try await withServer(try Self.router(tree, middlewareRuns: runs)) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            // `%61` is `a`: the same file, but a spelling the fast path leaves to the ordinary route.
            for (fast, ordinary, method) in [("/static/a.txt", "/static/%61.txt", "GET"), ("/static/sub/b.js", "/static/sub/%62.js", "HEAD")] {
                try await client.send("\(method) \(fast) HTTP/1.1\r\nHost: panel\r\n\r\n")
                let quick = try await client.readResponse(head: method == "HEAD")
                #expect(runs.value == 0)
                try await client.send("\(method) \(ordinary) HTTP/1.1\r\nHost: panel\r\n\r\n")
                let slow = try await client.readResponse(head: method == "HEAD")
                #expect(runs.value == 1)
                runs.value = 0
                #expect(quick.status == 200 && slow.status == 200)
                #expect(Self.withoutDate(quick) == Self.withoutDate(slow))
                #expect(quick.body == slow.body)
                #expect(quick.header("Date") != nil)
                if method == "GET" { #expect(quick.text == "hello file") }
                #expect(quick.headers.map(\.0) == ["Date", "ETag", "Last-Modified", "Cache-Control", "Content-Type", "X-Frame-Options",
                                                   "X-Content-Type-Options", "Content-Length"])
            }
            // 304, then `Connection: close` on both paths.
            try await client.send("GET /static/a.txt HTTP/1.1\r\nHost: panel\r\n\r\n")
            let etag = try #require(try await client.readResponse().header("ETag"))
            try await client.send("GET /static/a.txt HTTP/1.1\r\nHost: panel\r\nIf-None-Match: \(etag)\r\n\r\n")
            let quick = try await client.readResponse()
            try await client.send("GET /static/%61.txt HTTP/1.1\r\nHost: panel\r\nIf-None-Match: \(etag)\r\n\r\n")
            let slow = try await client.readResponse()
            #expect(quick.status == 304 && slow.status == 304 && quick.body.isEmpty)
            #expect(Self.withoutDate(quick) == Self.withoutDate(slow))
            #expect(runs.value == 1)
        }
        for target in ["/static/a.txt", "/static/%61.txt"] {
            try await withServer(try Self.router(tree, middlewareRuns: runs)) { _, port in
                let client = try await RawHTTPClient.connect(port: port)
                try await client.send("GET \(target) HTTP/1.0\r\nHost: panel\r\n\r\n")
                let response = try await client.readResponse()
                #expect(response.status == 200 && response.text == "hello file")
                #expect(response.header("Connection") == "close")
                #expect(await client.readsEOF())
            }
        }
    }

    @Test func leavesUnusualRequestsToTheOrdinaryRoute() async throws {
        let tree = try StaticTree()
        let runs = Locked(0)
        try await withServer(try Self.router(tree, middlewareRuns: runs)) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            let cases: [(String, Int)] = [
                ("GET /static/a.txt HTTP/1.1\r\nHost: elsewhere\r\n\r\n", 200),   // refused by `admitsHost`
                ("GET /static/missing.txt HTTP/1.1\r\nHost: panel\r\n\r\n", 404),
                ("GET /static/.env HTTP/1.1\r\nHost: panel\r\n\r\n", 404),
                ("GET /static/escape HTTP/1.1\r\nHost: panel\r\n\r\n", 404),   // a symlink out of the root
                ("GET /static/sub/../a.txt HTTP/1.1\r\nHost: panel\r\n\r\n", 404),
                ("GET /static//a.txt HTTP/1.1\r\nHost: panel\r\n\r\n", 404),
                ("GET /static/sub/ HTTP/1.1\r\nHost: panel\r\n\r\n", 404),
                ("POST /static/a.txt HTTP/1.1\r\nHost: panel\r\nContent-Length: 0\r\n\r\n", 405),
            ]
            for (expected, (request, status)) in cases.enumerated() {
                try await client.send(request)
                let response = try await client.readResponse()
                #expect(response.status == status, "\(request)")
                #expect(runs.value == expected + 1, "\(request) went through the middlewares")
            }
            // An admitted Host is remembered per connection, and only that one.
            try await client.send("GET /static/a.txt HTTP/1.1\r\nHost: panel\r\n\r\n")
            #expect(try await client.readResponse().status == 200)
            #expect(runs.value == cases.count)
            try await client.send("GET /static/a.txt HTTP/1.1\r\nHost: elsewhere\r\n\r\n")
            #expect(try await client.readResponse().status == 200)
            #expect(runs.value == cases.count + 1)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let tree = try StaticTree()
        try await withServer(try Self.router(tree, middlewareRuns: Locked(0))) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            let paths = (0..<50).map { ["/static/a.txt", "/static/app.css", "/static/%61.txt", "/static/logo.svg"][$0 % 4] }
            try await client.send(paths.map { "GET \($0) HTTP/1.1\r\nHost: panel\r\n\r\n" }.joined())
            for path in paths {
                let response = try await client.readResponse()
                #expect(response.status == 200)
                #expect(response.text == (path.hasSuffix(".txt") ? "hello file" : path.hasSuffix(".css") ? "body{}" : "<svg/>"))
            }
        }
    }

    /// Cached files go out with the head in one write, without a copy: large enough here that
    /// the socket takes them in pieces, pipelined, over plain TCP and TLS.
    @Test(arguments: [Wire.plain, Wire.tls]) func cachedFilesSurvivePartialWrites(wire: Wire) async throws {
        let tree = try StaticTree()
        let large = Data((0..<(900 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        try large.write(to: tree.root.appendingPathComponent("large.bin"))
        try await Wire.$current.withValue(wire) {
            try await withServer(try Self.router(tree, middlewareRuns: Locked(0))) { _, port in
                let client = try await RawHTTPClient.connect(port: port)
                try await client.send(String(repeating: "GET /static/large.bin HTTP/1.1\r\nHost: panel\r\n\r\n", count: 3)
                                      + "GET /static/a.txt HTTP/1.1\r\nHost: panel\r\n\r\n")
                for _ in 0..<3 {
                    let response = try await client.readResponse()
                    #expect(response.status == 200 && response.body == large)
                }
                #expect(try await client.readResponse().text == "hello file")
            }
        }
    }

    @Test func seesAChangedFileWithinASecondOrSo() async throws {
        let tree = try StaticTree()
        try await withServer(try Self.router(tree, middlewareRuns: Locked(0))) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("GET /static/a.txt HTTP/1.1\r\nHost: panel\r\n\r\n")
            let before = try await client.readResponse()
            try Data("changed, and longer".utf8).write(to: tree.root.appendingPathComponent("a.txt"))
            let deadline = Date().addingTimeInterval(5)
            var after = before
            while after.text == before.text && Date() < deadline {
                try await client.send("GET /static/a.txt HTTP/1.1\r\nHost: panel\r\n\r\n")
                after = try await client.readResponse()
                #expect(after.text == before.text || after.text == "changed, and longer")
                #expect(after.header("Content-Length") == String(after.body.count))
            }
            #expect(after.text == "changed, and longer")
            #expect(after.header("ETag") != before.header("ETag"))
        }
    }

    @Test func largeFilesGoFromDiskAndTheAccessLogGetsEveryLine() async throws {
        let tree = try StaticTree()
        let big = Data((0..<(StaticFileCache.maxFileBytes + 4096)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try big.write(to: tree.root.appendingPathComponent("big.bin"))
        let lines = Locked<[AccessLogEntry]>([])
        let configuration = ServerConfiguration(port: 0, accessLog: { entry in lines.withLock { $0.append(entry) } })
        let server = HTTPServer(configuration: configuration, router: try Self.router(tree, middlewareRuns: Locked(0)))
        let port = try server.start()
        let client = try await RawHTTPClient.connect(port: port)
        try await client.send("GET /static/big.bin HTTP/1.1\r\nHost: panel\r\n\r\nHEAD /static/big.bin HTTP/1.1\r\nHost: panel\r\n\r\n")
        let response = try await client.readResponse()
        #expect(response.status == 200 && response.body == big)
        let head = try await client.readResponse(head: true)
        #expect(head.header("Content-Length") == String(big.count))
        await server.shutdown(deadline: .seconds(1))
        let logged = lines.value
        #expect(logged.map(\.route) == ["/static/{path...}", "/static/{path...}"])
        #expect(logged.map(\.status) == [200, 200])
        #expect(logged.map(\.method) == ["GET", "HEAD"])
        #expect(logged.first?.bytes == big.count)
    }
}
