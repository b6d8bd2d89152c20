import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// `accept` failing for want of descriptors (EMFILE) must back off and retry, not end the
/// accept loop. The server runs in a child process (this test binary again, running only
/// `childServerShortOfDescriptors`), so lowering its descriptor limit and using up every
/// descriptor cannot disturb the other tests. The descriptors are held by the child itself, not
/// by connections, so no closing connection wakes the acceptor: only the timed retry can.
@Suite(.awaitsTeardown) struct AcceptBackOffTests {
    static let childVariable = "HTTPSERVER_ACCEPT_BACKOFF_CHILD"

    @Test func acceptRetriesAfterRunningOutOfDescriptors() async throws {
        let child = try await offPool { try BackOffChild() }
        defer { child.kill() }
        let (early, answer) = try await offPool { () throws -> (String, RawResponse?) in
            let client = try RawHTTPClient.connectNow(port: child.port, timeoutSeconds: 10)
            // Connected through the kernel's backlog; the server cannot accept it yet.
            try client.sendNow("GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let early = String(decoding: client.arrivedNow(withinMilliseconds: 300), as: UTF8.self)
            child.releaseDescriptors()
            return (early, try? client.readResponseNow())
        }
        #expect(early.isEmpty, "answered while out of descriptors: \(early.debugDescription)")
        #expect(answer?.status == 200, "no answer once descriptors were free")
        #expect(answer?.text.contains("pong") == true)
        let status = try await offPool { child.finish() }
        #expect(status == 0, "the child server reported a failure")
    }

    /// The child's side; skipped in an ordinary run.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[Self.childVariable] != nil))
    func childServerShortOfDescriptors() async throws {
        var router = Router()
        router.get("/ping") { _ in .text("pong") }
        let server = HTTPServer(configuration: ServerConfiguration(host: "127.0.0.1", port: 0, accessLog: nil,
                                                                   eventLoopCount: 1), router: router)
        let port = try server.start()

        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = min(limit.rlim_cur, 256)
        #expect(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        var held: [Int32] = []
        var failure: Int32 = 0
        while held.count < 1024 {
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            if fd < 0 { failure = errno; break }
            held.append(fd)
        }
        #expect(failure == EMFILE, "descriptors were not used up")

        FileHandle.standardOutput.write(Data("READY \(port)\n".utf8))
        _ = try await offPool { readLine() }   // "release"
        for fd in held { close(fd) }
        _ = try await offPool { while readLine() != nil {} }   // the parent closes our input when done
        await server.shutdown(deadline: .seconds(1))
    }
}

/// This test binary run again as a child holding only `childServerShortOfDescriptors`.
/// Blocking: call through `offPool`.
private final class BackOffChild: Sendable {
    let child: ChildProcess
    let port: Int

    init() throws {
        guard let path = realpath("/proc/self/exe", nil) else { throw RawHTTPClient.Failure(description: "no /proc/self/exe") }
        defer { free(path) }
        var environment = ProcessInfo.processInfo.environment
        environment[AcceptBackOffTests.childVariable] = "1"
        child = try ChildProcess(String(cString: path), ["--testing-library", "swift-testing", "--filter", "childServerShortOfDescriptors"],
                                 environment: environment, input: .pipe, output: .pipe)
        let printed = try child.readOutput { $0.range(of: #"READY \d+\n"#, options: .regularExpression) != nil }
        let line = printed.range(of: #"READY \d+"#, options: .regularExpression)!
        port = Int(printed[line].dropFirst("READY ".count)) ?? 0
    }

    func releaseDescriptors() {
        try? child.write("release\n")
    }

    /// Closes the child's input (its cue to stop) and returns its exit status; SIGKILL after 20 s.
    func finish() -> Int32 {
        child.closeInput()
        if let done = child.wait(seconds: 20) { return done.status }
        kill()
        return child.wait()!.status
    }

    func kill() {
        child.signal(SIGKILL)
    }
}
