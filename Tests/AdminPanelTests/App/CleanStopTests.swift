import Foundation
import SQLiteStore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28 on `openmarket-admin` (with its embedded sandbox): every request answered before
/// SIGTERM keeps its access-log line, in order; a write answered just before the stop is in
/// panel.sqlite after a restart; the process exits 0 (docs/stopping.md).
@Suite(.awaitsTeardown) struct PanelCleanStopTests {
    /// Even requests fetch a stylesheet (200), odd ones a file that does not exist (404).
    static func path(client: Int, request: Int) -> String {
        request % 2 == 0 ? "/static/app.css" : "/static/missing-\(client)-\(request).css"
    }

    static func expectedLine(_ answer: StopTraffic.Answer) -> String { "GET /static/{path...} \(answer.status)" }

    static func trafficThenStop(clients: Int, requests: Int) async throws -> (answers: [[StopTraffic.Answer]], status: Int32?, log: String) {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("panel-stop-\(UUID().uuidString)")
        let log = data.path + ".log"
        defer {
            try? FileManager.default.removeItem(at: data)
            try? FileManager.default.removeItem(atPath: log)
        }
        let started = try await offPool { try ExecutableTests.start(data: data, error: .file(log)) }
        let answers = try await offPool { try StopTraffic.run(port: started.port, clients: clients, requests: requests, path: path) }
        let status = try await ExecutableTests.stop(started.child)
        return (answers, status, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    @Test func aKeepAliveAndPipeliningClientsRequestsAreAllLoggedInOrder() async throws {
        for requests in [1, 6, 25] {
            let run = try await Self.trafficThenStop(clients: 1, requests: requests)
            #expect(run.status == 0)
            #expect(run.answers[0].map(\.status) == (0..<requests).map { $0 % 2 == 0 ? 200 : 404 })
            let logged = StopTraffic.loggedRequests(in: run.log, routePart: "/static/")
            #expect(logged == run.answers[0].map(Self.expectedLine), "\(requests) requests; log:\n\(run.log)")
        }
    }

    @Test func fourClientsAtOnceLoseNoLine() async throws {
        let run = try await Self.trafficThenStop(clients: 4, requests: 40)
        #expect(run.status == 0)
        let logged = StopTraffic.loggedRequests(in: run.log, routePart: "/static/")
        #expect(logged.count == 160)
        #expect(logged.sorted() == run.answers.flatMap { $0 }.map(Self.expectedLine).sorted())
    }

    /// An edit answered, then SIGTERM at once: its activity row is in panel.sqlite (read directly,
    /// and on the restarted panel's activity page).
    @Test func anActivityRowWrittenRightBeforeTheStopSurvivesIt() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("panel-stop-activity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await offPool { try ExecutableTests.start(data: data, extra: ["--seed", "2"]) }
        let browser = TestBrowser(port: first.port)
        let form = try await browser.get("/products/1/edit")
        #expect(form.status == 200)
        let name = "Renamed before the stop \(UInt32.random(in: 1000...9999))"
        let saved = try await browser.post("/products/1/edit", form: EditRouteTests.editFields(from: form, overriding: ["name": name]))
        #expect(saved.status == 303)
        let stoppedAt = Date()
        #expect(try await ExecutableTests.stop(first.child) == 0)
        #expect(Date().timeIntervalSince(stoppedAt) < 10)
        // Closed cleanly: the WAL was checkpointed into the file.
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("panel.sqlite-wal").path))

        let connection = try SQLiteConnection(path: data.appendingPathComponent("panel.sqlite").path)
        var edits: [Double] = []
        try connection.query("SELECT at FROM activity WHERE action = 'edit' AND product_id = 1") { edits.append($0.double(0)) }
        connection.close()
        #expect(edits.count == 1)
        #expect(abs((edits.first ?? 0) - stoppedAt.timeIntervalSince1970) < 2)

        let second = try await offPool { try ExecutableTests.start(data: data) }
        let activity = try await TestBrowser(port: second.port).get("/activity")
        #expect(activity.status == 200)
        #expect(activity.text.contains(name))
        #expect(try await ExecutableTests.stop(second.child) == 0)
    }

    /// Standard error is a pipe nobody reads during the traffic, so the log's writer waits on a
    /// full pipe with thousands of lines queued: the stop must wait for them, not exit with them.
    @Test func linesQueuedBehindAStalledSinkAreWrittenBeforeTheExit() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("panel-stall-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let started = try await offPool { try ExecutableTests.start(data: data, error: .pipe) }
        let answered = try await offPool { () throws -> Int in
            let connection = try RawHTTPClient.connectNow(port: started.port)
            var count = 0
            for batch in 0..<30 {
                count += try connection.pipelineNow((0..<100).map { "/static/missing-\(batch)-\($0).css" }).count
            }
            return count
        }
        started.child.signal(SIGTERM)
        // Give it a moment to exit with the pipe still full: a stop that does not wait for the
        // log would end now and lose the queued lines; a correct one is still waiting on the pipe.
        _ = try await offPool { started.child.wait(seconds: 1) }
        let ended = try await offPool { started.child.readToEnd() }
        #expect(ended.termination == .exited(0))
        #expect(StopTraffic.loggedRequests(in: ended.error, routePart: "/static/").count == answered)
        #expect(!ended.error.contains("dropped"))
    }
}
