import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// Server-side sockets of `port` in CLOSE_WAIT: the client left but the server kept its descriptor.
func socketsLeftOpen(port: Int) -> Int {
    let hexPort = String(format: ":%04X", port)
    var count = 0
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            if fields.count > 3, fields[1].hasSuffix(hexPort), fields[3] == "08" { count += 1 }
        }
    }
    return count
}

/// Bytes that arrived on the server's side of `port`'s connections and that the server has not
/// read yet (the kernel's receive queues): 0 means the server has seen everything sent so far.
func bytesUnreadByServer(port: Int) -> Int {
    let hexPort = String(format: ":%04X", port)
    var unread = 0
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[1].hasSuffix(hexPort), fields[3] == "01" else { continue }
            unread += fields[4].split(separator: ":").last.flatMap { Int($0, radix: 16) } ?? 0
        }
    }
    return unread
}

/// 1,000 clients plus the server's 1,000 descriptors exceed a default soft limit of 1,024.
func raiseDescriptorLimit(to wanted: rlim_t) {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    if limit.rlim_cur < wanted {
        limit.rlim_cur = min(wanted, limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

func shortDeadlines() -> ServerLimits {
    var limits = ServerLimits()
    limits.headerTimeout = .milliseconds(400)
    limits.idleTimeout = .milliseconds(600)
    limits.bodyTimeout = .milliseconds(400)
    limits.writeTimeout = .seconds(2)
    return limits
}

/// `/slow` answers "slow done" once `release` is set, or after 300 ms of work when there is no
/// `release`; `entered` counts the requests that reached the handler, so a test can wait for a
/// request in flight.
func slowRouter(entered: Locked<Int>? = nil, release: Locked<Bool>? = nil) -> Router<BasicRequestContext> {
    var r = echoRouter()
    r.get("/slow") { _ in
        entered?.withLock { $0 += 1 }
        if let release {
            if !(await eventually { release.withLock { $0 } }) { return .text("never released", status: 500) }
        } else {
            try await Task.sleep(for: .milliseconds(300))   // a handler that takes a while, not a wait of the test
        }
        return .text("slow done")
    }
    return r
}

@Suite(.serialized, .awaitsTeardown) struct ServerRobustnessTests {
    @Test func expectContinueIsAnsweredOnlyWhenTheLimitPasses() async throws {
        try await withServer(echoRouter()) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
            #expect(try await client.readResponse().status == 100)
            try await client.send("hello")
            #expect(try await client.readResponse().text == "hello")

            let refused = try await RawHTTPClient.connect(port: port)
            try await refused.send("POST /small HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 50\r\n\r\n")
            let response = try await refused.readResponse()
            #expect(response.status == 413)
            #expect(await refused.readsEOF())
        }
    }

    @Test func oversizedBodyIsRefusedBeforeItIsRead() async throws {
        try await withServer(echoRouter()) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            // 100 MB announced; only a little is sent. The answer must not wait for the rest.
            try await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n")
            try await client.send([UInt8](repeating: 65, count: 32 * 1024))
            let response = try await client.readResponse()
            #expect(response.status == 413)
            #expect(response.header("Connection") == "close")
        }
    }

    @Test func unreadSmallBodyIsDrainedAndTheConnectionReused() async throws {
        try await withServer(echoRouter()) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("POST /ignore HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789GET /hello/again HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "ignored")
            #expect(try await client.readResponse().text == "hello again")
        }
    }

    @Test func halfClosedClientStillGetsItsAnswers() async throws {
        let entered = Locked(0), release = Locked(false)
        try await withServer(slowRouter(entered: entered, release: release)) { server, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /hello/b HTTP/1.1\r\nHost: x\r\n\r\n")
            client.shutdownWrite()   // while /slow is still in its handler
            #expect(await eventually { entered.withLock { $0 } == 1 })
            release.withLock { $0 = true }
            #expect(try await client.readResponse().text == "slow done")
            let last = try await client.readResponse()
            #expect(last.text == "hello b" && last.header("Connection") == "close")
            #expect(await client.readsEOF())

            // Half-closing while the server drains an unread body: answered, then closed.
            let drained = try await RawHTTPClient.connect(port: port)
            try await drained.send("POST /ignore HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc")
            #expect(try await drained.readResponse().text == "ignored")
            drained.shutdownWrite()
            #expect(await drained.readsEOF())
            #expect(await eventually { server.openConnections == 0 })
        }
    }

    @Test func malformedRequestGets400AndClose() async throws {
        try await withServer(echoRouter()) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 400)
            #expect(response.header("Connection") == "close")
            #expect(await client.readsEOF())
        }
    }

    @Test func slowClientIsClosedAtTheDeadlineWhileOthersAreServed() async throws {
        try await withServer(echoRouter(), limits: shortDeadlines()) { _, port in
            let slow = try await RawHTTPClient.connect(port: port)
            try await slow.send("GET /hello/slow HTTP/1.1\r\nHost: x\r\n")   // never finishes its head
            let fast = try await RawHTTPClient.connect(port: port)
            for i in 0..<5 {
                try await fast.send("GET /hello/\(i) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await fast.readResponse().text == "hello \(i)")
            }
            let answer = try await slow.readResponse()
            #expect(answer.status == 408)
            #expect(await slow.readsEOF())
        }
    }

    @Test func idleKeepAliveConnectionIsClosed() async throws {
        try await withServer(echoRouter(), limits: shortDeadlines()) { server, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("GET /hello/x HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().status == 200)
            #expect(await client.readsEOF())
            #expect(await eventually { server.openConnections == 0 })
        }
    }

    @Test func stalledBodyTimesOut() async throws {
        try await withServer(echoRouter(), limits: shortDeadlines()) { server, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
            let response = try await client.readResponse()
            #expect(response.status == 408)
            #expect(await eventually { server.openConnections == 0 })
        }
    }

    @Test func clientThatStopsReadingHitsTheWriteDeadline() async throws {
        // A sparse 256 MiB file: far more than socket buffers hold, without using memory or disk.
        let path = NSTemporaryDirectory() + "/write-deadline-\(UUID().uuidString)"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { unlink(path) }
        #expect(truncate(path, 256 << 20) == 0)
        var router = Router()
        router.get("/huge") { _ in HTTPResponse(body: .file(path: path)) }
        try await withServer(router, limits: shortDeadlines()) { server, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("GET /huge HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await eventually { server.openConnections == 1 })
            #expect(await eventually { server.openConnections == 0 })
            #expect(client.fd >= 0)   // the client is still there, just not reading
        }
    }

    @Test func clientsVanishingMidRequestLeaveNothingOpen() async throws {
        let entered = Locked(0), release = Locked(false)
        try await withServer(slowRouter(entered: entered, release: release)) { server, port in
            do {
                let partialHead = try await RawHTTPClient.connect(port: port)
                try await partialHead.send("GET /hello/x HTTP/1.1\r\nHo")
                let partialBody = try await RawHTTPClient.connect(port: port)
                try await partialBody.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc")
                let gone = try await RawHTTPClient.connect(port: port)
                try await gone.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
                let chunked = try await RawHTTPClient.connect(port: port)
                try await chunked.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab")
                // Each is mid-request only once the server has taken all four in and read their bytes.
                #expect(await eventually {
                    server.openConnections == 4 && entered.withLock { $0 } == 1 && bytesUnreadByServer(port: port) == 0
                })
            }   // all four close here, mid-request
            release.withLock { $0 = true }
            let survivor = try await RawHTTPClient.connect(port: port)
            try await survivor.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await survivor.readResponse().text == "slow done")
            #expect(await eventually { server.openConnections == 1 })
            #expect(await eventually { socketsLeftOpen(port: port) == 0 })
        }
    }

    /// Client and server ends both live in this test process: 2,000 descriptors and more. Tests
    /// start programs with TestSupport's ChildProcess, not Foundation's `Process`, whose `run()`
    /// crashes listing /proc/self/fd past ~1,300 (swift-corelibs-foundation #5472).
    @Test func thousandSimultaneousConnections() async throws {
        let count = 1_000
        raiseDescriptorLimit(to: 4096)
        try await withServer(echoRouter()) { server, port in
            var clients: [RawHTTPClient] = []
            for _ in 0..<count { clients.append(try await RawHTTPClient.connect(port: port)) }
            for (i, client) in clients.enumerated() { try await client.send("GET /hello/\(i) HTTP/1.1\r\nHost: x\r\n\r\n") }
            for (i, client) in clients.enumerated() { #expect(try await client.readResponse().text == "hello \(i)") }
            #expect(server.openConnections == count)
            clients.removeAll()
            #expect(await eventually { server.openConnections == 0 })
            #expect(await eventually { socketsLeftOpen(port: port) == 0 })
        }
    }

    @Test func aFullServerClosesTheLongestIdleConnectionsToAdmitNewOnes() async throws {
        var limits = ServerLimits()
        limits.maxConnections = 3
        try await withServer(echoRouter(), limits: limits) { server, port in
            // A flood of keep-alive connections that made one request each and then sit idle.
            var flood: [RawHTTPClient] = []
            for i in 0..<3 {
                let client = try await RawHTTPClient.connect(port: port)
                try await client.send("GET /hello/\(i) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.readResponse().status == 200)
                flood.append(client)
            }
            #expect(server.openConnections == 3)
            let person = try await RawHTTPClient.connect(port: port)
            try await person.send("GET /hello/person HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await person.readResponse().text == "hello person")
            #expect(await flood[0].readsEOF())   // the longest idle made room
            #expect(server.openConnections <= 3)
        }
    }

    @Test func busyConnectionsAreNotClosedToAdmitNewOnes() async throws {
        var limits = ServerLimits()
        limits.maxConnections = 2
        try await withServer(slowRouter(), limits: limits) { server, port in
            let a = try await RawHTTPClient.connect(port: port), b = try await RawHTTPClient.connect(port: port)
            try await a.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            try await b.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await eventually { server.openConnections == 2 })
            let waiting = try await RawHTTPClient.connect(port: port)   // accepted by the kernel, not by the server
            try await waiting.send("GET /hello/c HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await a.readResponse().text == "slow done")   // not cut off for the newcomer
            #expect(try await b.readResponse().text == "slow done")
            #expect(try await waiting.readResponse().text == "hello c")
            #expect(server.openConnections <= 2)
        }
    }

    @Test func gracefulShutdownFinishesRequestsInFlight() async throws {
        let entered = Locked(0), release = Locked(false)
        let server = HTTPServer(configuration: ServerConfiguration(port: 0, accessLog: nil),
                                router: slowRouter(entered: entered, release: release))
        let port = try server.start()
        let idle = try await RawHTTPClient.connect(port: port)
        try await idle.send("GET /hello/x HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await idle.readResponse().status == 200)
        let client = try await RawHTTPClient.connect(port: port)
        try await client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually { entered.withLock { $0 } == 1 })   // the request is in flight
        let stopping = Task { await server.shutdown(deadline: .seconds(10)) }
        #expect(await idle.readsEOF())   // shutdown has begun: it closes idle connections first
        release.withLock { $0 = true }
        let response = try await client.readResponse()
        #expect(response.text == "slow done")
        #expect(response.header("Connection") == "close")
        #expect(await idle.readsEOF())
        await stopping.value
        await #expect(throws: (any Error).self) { try await RawHTTPClient.connect(port: port) }
        #expect(server.openConnections == 0)
    }

    @Test func accessLogNamesTheRouteNotThePath() async throws {
        let lines = Locked<[String]>([])
        let server = HTTPServer(configuration: ServerConfiguration(port: 0, accessLog: { entry in
            lines.withLock { $0.append(entry.line) }
        }), router: echoRouter())
        let port = try server.start()
        let client = try await RawHTTPClient.connect(port: port)
        try await client.send("GET /hello/secret-token?password=hunter2 HTTP/1.1\r\nHost: x\r\nCookie: s=abc\r\n\r\n")
        #expect(try await client.readResponse().status == 200)
        #expect(await eventually { !lines.withLock { $0.isEmpty } })
        await server.shutdown()
        let line = lines.withLock { $0.first } ?? ""
        #expect(line.hasPrefix("GET /hello/{name} 200 "))
        #expect(!line.contains("secret") && !line.contains("hunter2") && !line.contains("abc"))
    }
}
