import Foundation
import Testing
@testable import HTTPServer

/// Starts a server on an ephemeral loopback port for one test.
func withServer(_ router: Router, limits: ServerLimits = ServerLimits(),
                _ body: (HTTPServer, Int) async throws -> Void) async throws {
    let server = HTTPServer(configuration: ServerConfiguration(port: 0, limits: limits, accessLog: nil), router: router)
    let port = try server.start()
    do { try await body(server, port) } catch {
        await server.shutdown(deadline: .seconds(1))
        throw error
    }
    await server.shutdown(deadline: .seconds(1))
}

func echoRouter() -> Router {
    var r = Router()
    r.get("/hello/{name}") { req in .text("hello \(req.pathParameters["name"]!)") }
    r.post("/echo") { req in .text(String(decoding: try await req.body.collect(), as: UTF8.self)) }
    r.post("/small", bodyLimit: 10) { req in .text("got \(try await req.body.collect().count)") }
    r.post("/ignore") { _ in .text("ignored") }
    r.post("/form") { req in
        let form = try await req.urlencodedForm()
        return .text("\(form["a"] ?? "-")|\(form.all("b").joined(separator: ","))")
    }
    return r
}

@Suite(.serialized) struct ServerEndToEndTests {
    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        try await withServer(echoRouter()) { _, port in
            let client = try await RawClient.connect(port: port)
            for name in ["a", "b", "c"] {
                try await client.send("GET /hello/\(name) HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try await client.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "hello \(name)")
                #expect(response.header("Date") != nil)
                #expect(response.header("Connection") == nil)
            }
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withServer(echoRouter()) { _, port in
            let client = try await RawClient.connect(port: port)
            try await client.send("GET /hello/1 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nabcde"
                + "GET /hello/3 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "hello 1")
            #expect(try await client.readResponse().text == "abcde")
            #expect(try await client.readResponse().text == "hello 3")
        }
    }

    @Test func chunkedBodyAndForm() async throws {
        try await withServer(echoRouter()) { _, port in
            let client = try await RawClient.connect(port: port)
            try await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
            #expect(try await client.readResponse().text == "abcde")
            let form = "a=x+y%21&b=1&b=2"
            try await client.send("POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(form.utf8.count)\r\n\r\n\(form)")
            #expect(try await client.readResponse().text == "x y!|1,2")
        }
    }

    @Test func bodyOverRouteLimitGets413AndClose() async throws {
        try await withServer(echoRouter()) { _, port in
            let client = try await RawClient.connect(port: port)
            try await client.send("POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 413)
            #expect(response.header("Connection") == "close")
            #expect(await client.readsEOF())
        }
    }

    @Test func http10ClosesUnlessKeepAlive() async throws {
        try await withServer(echoRouter()) { _, port in
            let client = try await RawClient.connect(port: port)
            try await client.send("GET /hello/x HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let first = try await client.readResponse()
            #expect(first.header("Connection") == "keep-alive")
            try await client.send("GET /hello/y HTTP/1.0\r\n\r\n")
            let second = try await client.readResponse()
            #expect(second.text == "hello y" && second.header("Connection") == "close")
            #expect(await client.readsEOF())
        }
    }
}
