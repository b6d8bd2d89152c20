import Foundation
import Testing
@testable import HTTPClient
import HTTPServer
import TestSupport

func clientRouter() -> Router<BasicRequestContext> {
    var r = Router()
    r.get("/json") { _ in .json(Data("{\"ok\":true}".utf8)) }
    r.post("/echo") { req in
        var response = HTTPResponse.text(String(decoding: try await req.body.collect(), as: UTF8.self))
        response.headers["X-Method"] = req.method
        response.headers["X-Custom"] = req.headers["X-Custom"] ?? "-"
        return response
    }
    r.get("/stream") { _ in
        HTTPResponse(body: .stream(AsyncThrowingStream { continuation in
            for piece in ["alpha ", "beta ", String(repeating: "g", count: 100_000)] { continuation.yield(Data(piece.utf8)) }
            continuation.finish()
        }))
    }
    r.get("/empty") { _ in HTTPResponse(status: 204) }
    r.get("/cached") { _ in HTTPResponse(status: 304, headers: HTTPHeaders([("ETag", "\"x\"")])) }
    r.get("/sleep") { _ in
        try await Task.sleep(for: .seconds(3))
        return .text("late")
    }
    r.get("/close") { _ in
        var response = HTTPResponse.text("bye")
        response.headers["Connection"] = "close"
        return response
    }
    return r
}

@Suite(.serialized, .awaitsTeardown) struct HTTPClientTests {
    @Test func reusesOneConnectionForSequentialRequests() async throws {
        try await withServer(clientRouter()) { server, port in
            let client = HTTPClient()
            let url = URL(string: "http://127.0.0.1:\(port)/json")!
            for _ in 0..<5 {
                let response = try await client.send(method: "GET", url: url, headers: [], body: nil, timeout: .seconds(10))
                #expect(response.status == 200)
                #expect(response.body == Data("{\"ok\":true}".utf8))
                #expect(response.headers.contains { $0.0 == "Content-Type" && $0.1 == "application/json" })
            }
            #expect(server.openConnections == 1)
        }
    }

    @Test func bodiesChunkedAndEmptyResponses() async throws {
        try await withServer(clientRouter()) { _, port in
            let client = HTTPClient()
            let base = "http://127.0.0.1:\(port)"
            let echoed = try await client.send(method: "POST", url: URL(string: base + "/echo")!,
                                               headers: [("X-Custom", "v\r\nInjected: 1")], body: Data("payload".utf8),
                                               timeout: .seconds(10))
            #expect(String(decoding: echoed.body, as: UTF8.self) == "payload")
            #expect(echoed.headers.first { $0.0 == "X-Custom" }?.1 == "vInjected: 1")
            let streamed = try await client.send(method: "GET", url: URL(string: base + "/stream")!, headers: [], body: nil,
                                                 timeout: .seconds(10))
            #expect(streamed.body.count == 100_011)
            #expect(streamed.body.prefix(11) == Data("alpha beta ".utf8))
            let empty = try await client.send(method: "GET", url: URL(string: base + "/empty")!, headers: [], body: nil,
                                              timeout: .seconds(10))
            #expect(empty.status == 204 && empty.body.isEmpty)
            let cached = try await client.send(method: "GET", url: URL(string: base + "/cached")!, headers: [], body: nil,
                                               timeout: .seconds(10))
            #expect(cached.status == 304 && cached.body.isEmpty)
            let head = try await client.send(method: "HEAD", url: URL(string: base + "/json")!, headers: [], body: nil,
                                             timeout: .seconds(10))
            #expect(head.status == 200 && head.body.isEmpty)
            let missing = try await client.send(method: "GET", url: URL(string: base + "/nope?x=1")!, headers: [], body: nil,
                                                timeout: .seconds(10))
            #expect(missing.status == 404)
            let closing = try await client.send(method: "GET", url: URL(string: base + "/close")!, headers: [], body: nil,
                                                timeout: .seconds(10))
            #expect(String(decoding: closing.body, as: UTF8.self) == "bye")
            let after = try await client.send(method: "GET", url: URL(string: base + "/json")!, headers: [], body: nil,
                                              timeout: .seconds(10))
            #expect(after.status == 200)
        }
    }

    @Test func timesOut() async throws {
        try await withServer(clientRouter()) { _, port in
            let client = HTTPClient()
            await #expect(throws: HTTPClientError.timeout) {
                _ = try await client.send(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/sleep")!,
                                          headers: [], body: nil, timeout: .milliseconds(300))
            }
        }
    }

    @Test func retriesAnIdempotentRequestOnAStaleConnection() async throws {
        var limits = ServerLimits()
        limits.idleTimeout = .milliseconds(200)
        try await withServer(clientRouter(), limits: limits) { server, port in
            let client = HTTPClient()
            let url = URL(string: "http://127.0.0.1:\(port)/json")!
            let first = try await client.send(method: "GET", url: url, headers: [], body: nil, timeout: .seconds(10))
            #expect(first.status == 200)
            #expect(await eventually { server.openConnections == 0 })   // the server closed the pooled connection
            let second = try await client.send(method: "GET", url: url, headers: [], body: nil, timeout: .seconds(10))
            #expect(second.status == 200)
        }
    }

    @Test func connectionRefusedAndBadURLs() async throws {
        let client = HTTPClient()
        // Bind then close a socket to find a port nobody listens on.
        let server = HTTPServer(configuration: ServerConfiguration(port: 0, accessLog: nil), router: Router<BasicRequestContext>())
        let port = try server.start()
        await server.shutdown()
        await #expect(throws: HTTPClientError.self) {
            _ = try await client.send(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/")!, headers: [], body: nil,
                                      timeout: .seconds(5))
        }
        await #expect(throws: HTTPClientError.invalidRequest("only http:// and https:// URLs are supported")) {
            _ = try await client.send(method: "GET", url: URL(string: "ftp://127.0.0.1/")!, headers: [], body: nil,
                                      timeout: .seconds(5))
        }
        await #expect(throws: HTTPClientError.invalidRequest("invalid method")) {
            _ = try await client.send(method: "GET /x", url: URL(string: "http://127.0.0.1/")!, headers: [], body: nil,
                                      timeout: .seconds(5))
        }
    }

    /// What the strict parser refuses reaches the caller as `.malformedResponse`, never as a response.
    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\nContent-Length: 2\n\nok",
        "HTTP/1.1 200 OK\r\nSet-Cookie: a\r\n b\r\nContent-Length: 2\r\n\r\nok",
    ])
    func aMalformedAnswerIsAnError(answer: String) async throws {
        try await withServer({ try StubAPI.canned(answer) }) { upstream in
            let client = HTTPClient()
            await #expect(throws: HTTPClientError.malformedResponse) {
                _ = try await client.send(method: "GET", url: URL(string: "http://127.0.0.1:\(upstream.port)/")!,
                                          headers: [], body: nil, timeout: .seconds(10))
            }
            #expect(upstream.requests == 1)
        }
    }

    /// A body over the client's limit fails, declared (refused before a byte of it is read) or
    /// chunked (refused once it grows past the limit); one within it is answered.
    @Test func bodiesOverTheLimitAreRefused() async throws {
        let declared = try StubAPI.canned("HTTP/1.1 200 OK\r\nContent-Length: 31457280\r\n\r\n[[[[")
        let chunked = try StubAPI.canned("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n400\r\n"
                                         + String(repeating: "x", count: 1024) + "\r\n400\r\n" + String(repeating: "y", count: 1024)
                                         + "\r\n0\r\n\r\n")
        let small = try StubAPI.canned("HTTP/1.1 200 OK\r\nContent-Length: 1024\r\n\r\n" + String(repeating: "z", count: 1024))
        Teardown.add { await declared.stop(); await chunked.stop(); await small.stop() }
        let client = HTTPClient(maxResponseBodyBytes: 1536)
        for upstream in [declared, chunked] {
            await #expect(throws: HTTPClientError.bodyTooLarge(limit: 1536)) {
                _ = try await client.send(method: "GET", url: URL(string: "http://127.0.0.1:\(upstream.port)/")!, timeout: .seconds(10))
            }
        }
        let answer = try await client.send(method: "GET", url: URL(string: "http://127.0.0.1:\(small.port)/")!, timeout: .seconds(10))
        #expect(answer.body.count == 1024)
    }

    @Test func concurrentRequestsShareABoundedPool() async throws {
        try await withServer(clientRouter()) { server, port in
            let client = HTTPClient(maxConnectionsPerHost: 4)
            let url = URL(string: "http://127.0.0.1:\(port)/json")!
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<60 {
                    group.addTask { try await client.send(method: "GET", url: url, headers: [], body: nil, timeout: .seconds(20)).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.count == 60 && statuses.allSatisfy { $0 == 200 })
            #expect(server.openConnections <= 4)
        }
    }
}
