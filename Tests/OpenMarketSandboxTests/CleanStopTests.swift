import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28 on `openmarket-sandbox`: every request answered before SIGTERM keeps its access-log
/// line, in order, and the process exits 0 (docs/stopping.md).
@Suite(.awaitsTeardown) struct SandboxCleanStopTests {
    /// Even requests list products (200), odd ones ask for a product that does not exist (404),
    /// so the log's sequence of routes and statuses shows the order.
    static func path(client: Int, request: Int) -> String {
        request % 2 == 0 ? "/api/products?page_no=1&items_per_page=1" : "/api/products/\(900_000 + client * 1_000 + request)"
    }

    static func expectedLine(_ answer: StopTraffic.Answer) -> String {
        answer.path.hasPrefix("/api/products?") ? "GET /api/products \(answer.status)" : "GET /api/products/{id} \(answer.status)"
    }

    /// Starts the sandbox with its standard error in `log`, runs the traffic, stops it; answers
    /// what each client read, the exit status and the log.
    static func trafficThenStop(clients: Int, requests: Int) async throws -> (answers: [[StopTraffic.Answer]], status: Int32?, log: String) {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-stop-\(UUID().uuidString)")
        let log = data.path + ".log"
        defer {
            try? FileManager.default.removeItem(at: data)
            try? FileManager.default.removeItem(atPath: log)
        }
        let child = try ChildProcess(try builtProduct("openmarket-sandbox"),
                                     ["--port", "0", "--data", data.path, "--seed", "3"], error: .file(log))
        let url = #"listening on http://127\.0\.0\.1:(\d+)"#
        let printed = try await offPool { try child.readOutput { $0.range(of: url, options: .regularExpression) != nil } }
        let port = Int(printed[printed.range(of: url, options: .regularExpression)!].split(separator: ":").last ?? "") ?? 0
        let answers = try await offPool { try StopTraffic.run(port: port, clients: clients, requests: requests, path: path) }
        let status = try await offPool { child.stop(seconds: 30)?.status }
        return (answers, status, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    @Test func aKeepAliveAndPipeliningClientsRequestsAreAllLoggedInOrder() async throws {
        for requests in [1, 2, 7, 24] {
            let run = try await Self.trafficThenStop(clients: 1, requests: requests)
            #expect(run.status == 0)
            #expect(run.answers[0].allSatisfy { $0.status == 200 || $0.status == 404 })
            let logged = StopTraffic.loggedRequests(in: run.log, routePart: "/api/products")
            #expect(logged == run.answers[0].map(Self.expectedLine), "\(requests) requests; log:\n\(run.log)")
        }
    }

    @Test func fourClientsAtOnceLoseNoLine() async throws {
        let run = try await Self.trafficThenStop(clients: 4, requests: 40)
        #expect(run.status == 0)
        let logged = StopTraffic.loggedRequests(in: run.log, routePart: "/api/products")
        let expected = run.answers.flatMap { $0 }.map(Self.expectedLine)
        #expect(logged.count == 160)
        #expect(logged.sorted() == expected.sorted())
    }

    /// Standard error is a pipe nobody reads during the traffic: the pipe fills up and the log's
    /// writer waits on it with thousands of lines queued. The stop must wait for them (the test
    /// reads the pipe only after SIGTERM), not exit with them.
    @Test func linesQueuedBehindAStalledSinkAreWrittenBeforeTheExit() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-stall-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let child = try ChildProcess(try builtProduct("openmarket-sandbox"), ["--port", "0", "--data", data.path], error: .pipe)
        let url = #"listening on http://127\.0\.0\.1:(\d+)"#
        let printed = try await offPool { try child.readOutput { $0.range(of: url, options: .regularExpression) != nil } }
        let port = Int(printed[printed.range(of: url, options: .regularExpression)!].split(separator: ":").last ?? "") ?? 0
        let answered = try await offPool { () throws -> Int in
            let connection = try RawHTTPClient.connectNow(port: port)
            var count = 0
            for batch in 0..<30 {
                count += try connection.pipelineNow((0..<100).map { "/api/products/\(800_000 + batch * 100 + $0)" }).count
            }
            return count
        }
        child.signal(SIGTERM)
        // Give it a moment to exit with the pipe still full: a stop that does not wait for the
        // log would end now and lose the queued lines; a correct one is still waiting on the pipe.
        _ = try await offPool { child.wait(seconds: 1) }
        let ended = try await offPool { child.readToEnd() }
        #expect(ended.termination == .exited(0))
        #expect(StopTraffic.loggedRequests(in: ended.error, routePart: "/api/products").count == answered)
        #expect(!ended.error.contains("dropped"))
    }

    /// A second SIGTERM while the stop waits for a stalled log makes it no lossier: every line
    /// still arrives, and the exit status is 0.
    @Test func aSecondSignalDuringTheDrainLosesNothing() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-twice-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let child = try ChildProcess(try builtProduct("openmarket-sandbox"), ["--port", "0", "--data", data.path], error: .pipe)
        let url = #"listening on http://127\.0\.0\.1:(\d+)"#
        let printed = try await offPool { try child.readOutput { $0.range(of: url, options: .regularExpression) != nil } }
        let port = Int(printed[printed.range(of: url, options: .regularExpression)!].split(separator: ":").last ?? "") ?? 0
        let answered = try await offPool { () throws -> Int in
            let connection = try RawHTTPClient.connectNow(port: port)
            return try (0..<30).reduce(0) { count, batch in
                count + (try connection.pipelineNow((0..<100).map { "/api/products/\(700_000 + batch * 100 + $0)" }).count)
            }
        }
        child.signal(SIGTERM)
        _ = try await offPool { try child.readOutput { $0.contains("Stopping…") } }
        child.signal(SIGINT)
        _ = try await offPool { child.wait(seconds: 1) }
        let ended = try await offPool { child.readToEnd() }
        #expect(ended.termination == .exited(0))
        #expect(ended.output.contains("Stopping sooner"))
        #expect(StopTraffic.loggedRequests(in: ended.error, routePart: "/api/products").count == answered)
    }
}
