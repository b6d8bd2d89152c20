import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// The test kit itself (Tests/TestSupport): the raw client reads what is on the wire, the stub
/// API answers and misbehaves as programmed, `eventually` waits no longer than it must, and
/// `withServer` stops its server however the body ends. Then the rules the kit exists for.
@Suite(.serialized, .awaitsTeardown) struct TestKitTests {
    @Test func eventuallyAnswersAsSoonAsTheConditionHoldsAndFalseAtTheDeadline() async {
        let started = ContinuousClock.now
        var asked = 0
        #expect(await eventually { asked += 1; return asked == 3 })
        #expect(asked == 3)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(await eventually(seconds: 0.1) { false } == false)
    }

    @Test func withServerStopsTheServerWhenTheBodyThrows() async throws {
        struct Boom: Error {}
        var router = Router()
        router.get("/x") { _ in .text("x") }
        var seenPort = 0
        await #expect(throws: Boom.self) {
            try await withServer(router) { _, port in
                seenPort = port
                throw Boom()
            }
        }
        // Stopped, not merely abandoned: nobody listens on its port any more.
        await #expect(throws: RawHTTPClient.Failure.self) { _ = try await RawHTTPClient.connect(port: seenPort) }
    }

    @Test func theRawClientReadsChunkedKeptAliveAndPipelinedAnswers() async throws {
        var router = Router()
        router.get("/stream") { _ in
            HTTPResponse(body: .stream(AsyncThrowingStream { continuation in
                for piece in ["one ", "two"] { continuation.yield(Data(piece.utf8)) }
                continuation.finish()
            }))
        }
        router.get("/hello/{name}") { request in .text("hello \(request.pathParameters["name"]!)") }
        try await withServer(router) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            let streamed = try await client.readResponse()
            #expect(streamed.header("transfer-encoding") == "chunked")
            #expect(streamed.text == "one two")
            let answers = try await offPool { try client.pipelineNow(["/hello/a", "/hello/b"]) }
            #expect(answers.map(\.text) == ["hello a", "hello b"])
            let once = try await RawHTTPClient.request(port: port, method: "GET", path: "/hello/c")
            #expect(once.status == 200 && once.text == "hello c")
        }
    }

    @Test func theStubAnswersCountsAndKeepsWhatAFaultProgramRead() async throws {
        try await withServer({ try StubAPI { request in .text("got \(request.path)") } }) { stub in
            let answer = try await RawHTTPClient.request(port: stub.port, method: "GET", path: "/a")
            #expect(answer.text == "got /a")
            #expect(stub.requests == 1)
            #expect(stub.connections == 1)
        }
        try await withServer({ try StubAPI.canned("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi") }) { stub in
            let answer = try await RawHTTPClient.request(port: stub.port, method: "POST", path: "/p", body: Data("body".utf8))
            #expect(answer.text == "hi")
            let request = try #require(stub.received.first)
            #expect(request.method == "POST" && request.target == "/p" && request.body == Array("body".utf8))
        }
    }

    @Test func theStubsFaultsReachTheClient() async throws {
        try await withServer({ try StubAPI(faults: { connection in
            guard connection.readRequest() != nil else { return }
            connection.reset()
        }) }) { stub in
            await #expect(throws: RawHTTPClient.Failure.self) {
                _ = try await RawHTTPClient.request(port: stub.port, method: "GET", path: "/")
            }
        }
        try await withServer({ try StubAPI.canned("SSH-2.0-OpenSSH_9.6\r\n\r\n") }) { stub in
            await #expect(throws: RawHTTPClient.Failure.self) {
                _ = try await RawHTTPClient.request(port: stub.port, method: "GET", path: "/")
            }
        }
        let closed = try StubAPI.closedPort()
        await #expect(throws: RawHTTPClient.Failure.self) { _ = try await RawHTTPClient.connect(port: closed.port!) }
    }

    // MARK: The rules

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every Swift test file but the browser tests', with its path relative to Tests/.
    static func testSources() throws -> [(path: String, text: String)] {
        let tests = repository.appendingPathComponent("Tests")
        let walker = try #require(FileManager.default.enumerator(atPath: tests.path))
        var found: [(String, String)] = []
        while let path = walker.nextObject() as? String {
            guard path.hasSuffix(".swift"), !path.hasPrefix("Browser/") else { continue }
            found.append((path, try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)))
        }
        return found
    }

    /// What starts a server (or a server process) in a test.
    static let serverStarts = [#"withServer\b"#, #"withSandbox\b"#, #"PanelHarness\.start\b"#, #"StubAPI\b"#, #"HTTPServer\("#,
                               #"Sandbox\(configuration"#, #"SandboxHarness\("#, #"FaultyUpstream\("#, #"HostileAPI\("#,
                               #"ExecutableTests\.start\b"#, #"SandboxProcess"#, #"builtProduct\("#]

    /// The `@Suite` lines of `text` whose suite starts a server without `.awaitsTeardown`.
    static func suitesMissingTheTrait(_ text: String) -> [String] {
        // Each suite runs from its `@Suite` line (at the start of a line) to the next one.
        var suites: [(head: String, body: String)] = []
        for line in code(text) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("@Suite") {
                suites.append((line.trimmingCharacters(in: .whitespaces), ""))
            } else if !suites.isEmpty {
                suites[suites.count - 1].body += line + "\n"
            }
        }
        return suites.filter { suite in
            !suite.head.contains(".awaitsTeardown")
                && serverStarts.contains { (suite.head + suite.body).range(of: $0, options: .regularExpression) != nil }
        }.map(\.head)
    }

    /// The lines of `text` that are not comments.
    static func code(_ text: String) -> [String] {
        text.components(separatedBy: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
    }

    @Test func everySuiteThatStartsServersAwaitsItsTeardown() throws {
        let sources = try Self.testSources()
        #expect(sources.count > 100, "the scan found the test sources")
        for (path, text) in sources where !path.hasPrefix("TestSupport/") && !path.contains("/Support/") {
            #expect(Self.suitesMissingTheTrait(text).isEmpty, "\(path): \(Self.suitesMissingTheTrait(text))")
        }
    }

    @Test func noTeardownIsLeftToAnUnawaitedTask() throws {
        let pattern = "defer { " + "Task"   // split, so this file does not match itself
        for (path, text) in try Self.testSources() {
            #expect(!Self.code(text).contains { $0.contains(pattern) }, "\(path) leaves a teardown to an unawaited task: use Teardown.add or withServer")
        }
    }

    @Test func theScanFindsASuiteWithoutTheTrait() {
        let text = "@Suite struct A {\n  @Test func t() async throws { try await withServer(r) { _, _ in } }\n}\n"
            + "@Suite(.awaitsTeardown) struct B {\n  @Test func t() async throws { let s = try StubAPI { _ in .text(\"\") } }\n}\n"
            + "@Suite struct C {\n  @Test func t() { #expect(1 == 1) }\n}\n"
        #expect(Self.suitesMissingTheTrait(text) == ["@Suite struct A {"])
        #expect(Self.code("// defer { " + "Task\nlet x = 1").count == 1)
    }
}
