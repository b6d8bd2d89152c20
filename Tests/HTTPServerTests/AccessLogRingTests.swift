import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// The access log through per-loop rings: lines complete and in order per connection under
/// load, and a full ring that drops (and says so) without blocking its loop or mixing records.
@Suite(.awaitsTeardown) struct AccessLogRingTests {
    /// Collects whole lines from a writer's sink.
    final class Lines: Sendable {
        let received = Locked<[String]>([])
        func take(_ bytes: [UInt8]) {
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            // Every batch ends with a newline: the last piece is empty, or a line was cut.
            precondition(lines.last == "", "a batch ended inside a line")
            received.withLock { $0 += lines.dropLast().map(String.init) }
        }
    }

    /// `/len/{n}` answers n bytes, so each line's byte count says which request it belongs to.
    static func lengthRouter() -> Router<BasicRequestContext> {
        var router = Router()
        router.get("/len/{n}") { request in
            .text(String(repeating: "a", count: Int(request.pathParameters["n"] ?? "") ?? 0))
        }
        return router
    }

    @Test func linesArriveCompleteAndInPerConnectionOrderUnderLoad() async throws {
        let lines = Lines()
        let writer = AccessLogWriter { lines.take($0) }
        var configuration = ServerConfiguration(port: 0, eventLoopCount: 2)
        configuration.accessLogDestination = .writer(writer)
        let server = HTTPServer(configuration: configuration, router: Self.lengthRouter())
        let port = try server.start()
        let connections = 8, requests = 60
        try await withThrowingTaskGroup(of: Void.self) { group in
            for c in 0..<connections {
                group.addTask {
                    let client = try await RawHTTPClient.connect(port: port)
                    // Half pipelined in one send, half one after another.
                    let pipelined = (0..<requests / 2).map { "GET /len/\(c * 1000 + $0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
                    try await client.send(pipelined)
                    for i in 0..<requests / 2 { #expect(try await client.readResponse().body.count == c * 1000 + i) }
                    for i in requests / 2..<requests {
                        try await client.send("GET /len/\(c * 1000 + i) HTTP/1.1\r\nHost: x\r\n\r\n")
                        #expect(try await client.readResponse().status == 200)
                    }
                }
            }
            try await group.waitForAll()
        }
        await server.shutdown()
        // `shutdown` handed every record to the writer's thread; its sink follows.
        #expect(await eventually { lines.received.value.count >= connections * requests })
        let received = lines.received.value
        #expect(received.count == connections * requests)
        let pattern = #/^GET /len/\{n\} 200 (\d+)B \d+\.\dms$/#
        var perConnection = [[Int]](repeating: [], count: connections)
        for line in received {
            guard let match = line.wholeMatch(of: pattern), let bytes = Int(match.1) else {
                Issue.record("not a whole access-log line: \(line)")
                continue
            }
            perConnection[bytes / 1000].append(bytes % 1000)
        }
        for c in 0..<connections { #expect(perConnection[c] == Array(0..<requests), "connection \(c)") }
        #expect(writer.droppedLines == 0)
    }

    @Test func aFullRingDropsAndCountsWithoutBlockingOrMixingRecords() async throws {
        let sink = AccessLogWriterTests.StallableSink()
        let writer = AccessLogWriter { sink.take($0) }
        var router = Router()
        router.get("/r/{id}") { _ in .text("") }
        let routes = AccessLogRouteNames(router: router)
        let ring = writer.makeRing(capacity: 64, routes: routes) { writer.write($0.line) }
        #expect(ring.capacity == 64)
        writer.write("first")
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { sink.entered.wait(); c.resume() }
        }
        // The sink hangs, so the log thread cannot read the ring: 64 fit, the rest are dropped
        // at once (a loop never waits for the log).
        let route = routes.number("/r/{id}")
        let started = ContinuousClock.now
        var accepted = 0
        for i in 0..<200 {
            let record = AccessLogRecord(method: i % 2 == 0 ? "GET" : "PROPPATCH", route: route, status: 200 + i % 3,
                                         bytes: i, started: 1_000, finished: 1_000 + UInt64(i) * 100_000)
            if ring.append(record) { accepted += 1 }
        }
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(accepted == 64)

        sink.gate.signal()   // the sink takes bytes again
        #expect(await eventually { sink.received.value.count >= 66 })
        let expected = (0..<64).map { i in
            "\(i % 2 == 0 ? "GET" : "PROPPATCH") /r/{id} \(200 + i % 3) \(i)B \(i / 10).\(i % 10)ms"
        }
        #expect(sink.received.value == ["first"] + expected + ["access log: 136 lines dropped while the log could not keep up"])
        // Room again; the drop is reported once.
        #expect(ring.append(AccessLogRecord(method: "HEAD", route: 0, status: 404, bytes: 0, started: 0, finished: 0)))
        #expect(await eventually { sink.received.value.last == "HEAD - 404 0B 0.0ms" })
        #expect(sink.received.value.filter { $0.contains("dropped") }.count == 1)
    }

    @Test func aRecordKeepsLongMethodsToTheirCapacityAndUnknownRoutesByName() {
        let routes = AccessLogRouteNames(router: Self.lengthRouter())
        let late = routes.number("/not/registered")
        #expect(routes.name(late) == "/not/registered")
        #expect(routes.number("/not/registered") == late)
        let long = String(repeating: "X", count: 40)
        let record = AccessLogRecord(method: long, route: late, status: 405, bytes: 7, started: 0, finished: 12_345_678)
        #expect(record.entry(routes: routes).line == "\(String(repeating: "X", count: 24)) /not/registered 405 7B 12.3ms")
        // Every byte in its place, across the three words the record packs them into.
        for method in ["", "G", "GET", "PROPFIND", "ABCDEFGHIJKLMNOPQRSTUVW", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"] {
            let packed = AccessLogRecord(method: method, route: late, status: 200, bytes: 0, started: 0, finished: 0)
            #expect(packed.methodText == String(method.prefix(AccessLogRecord.methodCapacity)))
        }
    }
}
