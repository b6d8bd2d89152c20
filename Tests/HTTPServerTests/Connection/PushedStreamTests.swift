import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// `/events` answers a pushed stream whose writers the test keeps; `/hello` a small page.
private func pushRouter(_ writers: Locked<[EventStreamWriter]>) -> Router<BasicRequestContext> {
    var r = Router()
    r.get("/hello") { _ in .text("hello") }
    r.get("/events") { _ in
        .stream(headers: HTTPHeaders(.contentType, "text/event-stream"), farewell: Array("event: bye\ndata:\n\n".utf8)) { writer in
            writers.withLock { $0.append(writer) }
            writer.send(": opened\n\n")
        }
    }
    return r
}

private let eventsRequest = "GET /events HTTP/1.1\r\nHost: x\r\n\r\n"

@Suite(.serialized, .awaitsTeardown) struct PushedStreamTests {
    @Test(arguments: [Wire.plain, Wire.tls])
    func piecesSentLaterReachTheClient(wire: Wire) async throws {
        try await Wire.$current.withValue(wire) {
            let writers = Locked<[EventStreamWriter]>([])
            try await withServer(pushRouter(writers)) { server, port in
                let client = try await RawHTTPClient.connect(port: port)
                try await client.send(eventsRequest)
                let head = try await client.read(through: ": opened\n\n")
                #expect(head.hasPrefix("HTTP/1.1 200"))
                #expect(head.contains("Transfer-Encoding: chunked"))
                #expect(head.contains("text/event-stream"))
                #expect(await eventually { writers.value.count == 1 })
                let writer = writers.value[0]
                for n in 1...3 { writer.send("data: \(n)\n\n") }
                let more = try await client.read(through: "data: 3\n\n")
                #expect(more.contains("data: 1\n\n") && more.contains("data: 2\n\n"))
                writer.finish()
                _ = try await client.read(through: "0\r\n\r\n")
                #expect(await client.readsEOF())
                #expect(await eventually { !writer.isOpen && server.openConnections == 0 })
            }
        }
    }

    @Test func aReaderThatStopsReadingIsDropped() async throws {
        var limits = ServerLimits()
        limits.streamStallTimeout = .milliseconds(300)
        limits.maxStreamBacklog = 64 * 1024 * 1024   // the stall, not the cap, must drop it
        let writers = Locked<[EventStreamWriter]>([])
        try await withServer(pushRouter(writers), limits: limits) { server, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send(eventsRequest)
            #expect(await eventually { writers.value.count == 1 })
            let writer = writers.value[0]
            let closed = Locked(false)
            writer.onClose { closed.value = true }
            // Far more than the socket buffers hold; the client reads none of it.
            let piece = [UInt8](repeating: 0x61, count: 64 * 1024)
            for _ in 0..<128 { writer.send(piece) }
            #expect(await eventually(seconds: 10) { closed.value })
            #expect(!writer.isOpen)
            #expect(await eventually { server.openConnections == 0 })
            withExtendedLifetime(client) {}
        }
    }

    @Test func aStreamOverItsBacklogIsDropped() async throws {
        var limits = ServerLimits()
        limits.maxStreamBacklog = 256 * 1024
        let writers = Locked<[EventStreamWriter]>([])
        try await withServer(pushRouter(writers), limits: limits) { server, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send(eventsRequest)
            #expect(await eventually { writers.value.count == 1 })
            let writer = writers.value[0]
            let piece = [UInt8](repeating: 0x61, count: 64 * 1024)
            for _ in 0..<200 { writer.send(piece) }
            #expect(await eventually(seconds: 5) { !writer.isOpen })
            #expect(await eventually { server.openConnections == 0 })
            withExtendedLifetime(client) {}
        }
    }

    @Test(arguments: [Wire.plain, Wire.tls])
    func aCleanStopSendsTheFarewellToEveryStream(wire: Wire) async throws {
        try await Wire.$current.withValue(wire) {
            let writers = Locked<[EventStreamWriter]>([])
            let logged = Locked<[String]>([])
            var configuration = ServerConfiguration(port: 0, limits: ServerLimits(),
                                                    accessLog: { entry in logged.withLock { $0.append("\(entry.route) \(entry.status)") } },
                                                    runHandlersOnEventLoops: false)
            if wire == .tls { configuration.transportFactory = TLSTransport.factory(context: TestCertificate.serverContext) }
            let server = HTTPServer(configuration: configuration, router: pushRouter(writers))
            let port = try server.start()
            var clients: [RawHTTPClient] = []
            for _ in 0..<3 {
                let client = try await RawHTTPClient.connect(port: port)
                try await client.send(eventsRequest)
                _ = try await client.read(through: ": opened\n\n")
                clients.append(client)
            }
            await server.shutdown(deadline: .seconds(5))
            for client in clients {
                let rest = try await client.read(through: "0\r\n\r\n")
                #expect(rest.contains("event: bye\ndata:\n\n"))
                #expect(await client.readsEOF())
            }
            // Each stream has its access-log line by the time the stop returns.
            #expect(logged.value.filter { $0 == "/events 200" }.count == 3)
        }
    }

    @Test func keepAliveAndPipeliningBesideStreamsAreUnaffected() async throws {
        let writers = Locked<[EventStreamWriter]>([])
        try await withServer(pushRouter(writers)) { _, port in
            let stream = try await RawHTTPClient.connect(port: port)
            try await stream.send(eventsRequest)
            _ = try await stream.read(through: ": opened\n\n")
            let client = try await RawHTTPClient.connect(port: port)
            let answers = try await offPool { try client.pipelineNow(["/hello", "/hello", "/hello"]) }
            #expect(answers.map(\.status) == [200, 200, 200])
            #expect(answers.allSatisfy { $0.text == "hello" })
            try await client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "hello")
            writers.value[0].send("data: still here\n\n")
            _ = try await stream.read(through: "data: still here\n\n")
        }
    }

    @Test func aHeadRequestGetsTheHeadOnly() async throws {
        let writers = Locked<[EventStreamWriter]>([])
        try await withServer(pushRouter(writers)) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("HEAD /events HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.readResponse(head: true)
            #expect(response.status == 200)
            #expect(writers.value.isEmpty)
        }
    }
}
