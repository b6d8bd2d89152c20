import Foundation
import OpenMarketCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Scheduled discounts across real restarts of `openmarket-admin` with its embedded sandbox and
/// the real clock: a sale of a few seconds, the panel killed in the middle of it, or stopped from
/// before its start until after its end. Waits poll what can be seen (pages, the API, the clock).
@Suite(.awaitsTeardown) struct SaleRestartTests {
    struct Panel {
        var started: ExecutableTests.Started
        var browser: TestBrowser
        var sandbox: TestBrowser
    }

    static func start(_ data: URL) async throws -> Panel {
        let started = try await offPool {
            try ExecutableTests.start(data: data, extra: ["--time-zone", "Asia/Seoul", "--seed", "2"])
        }
        let pattern = #"Sandbox API:\s+http://127\.0\.0\.1:(\d+)"#
        let line = try #require(started.lines.range(of: pattern, options: .regularExpression).map { String(started.lines[$0]) })
        let sandboxPort = try #require(Int(line.split(separator: ":").last ?? ""))
        return Panel(started: started, browser: TestBrowser(port: started.port), sandbox: TestBrowser(port: sandboxPort))
    }

    static func localTime(_ date: Date) -> String {
        SaleRules.localTimeText(date, zone: TimeZone(identifier: "Asia/Seoul")!)
    }

    /// The product's discount as the sandbox has it.
    static func discount(_ panel: Panel, _ id: Int) async throws -> Double {
        let answer = try await panel.sandbox.get("/api/products/\(id)")
        let json = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
        return try #require(json["discounted_price"] as? Double)
    }

    /// `eventually`, failing the test after `seconds`.
    static func poll(_ what: String, seconds: Double = 30, _ condition: () async throws -> Bool) async throws {
        guard try await eventually(seconds: seconds, condition) else {
            throw TestClientFailure(description: "\(what): not seen in \(seconds) s")
        }
    }

    static func schedule(_ panel: Panel, product: Int, start: Date, end: Date) async throws -> RawResponse {
        let form = try await panel.browser.get("/products/\(product)")
        let token = try #require(form.inputValue("csrf_token"))
        return try await panel.browser.post("/products/\(product)/sales", form: [
            ("csrf_token", token), ("sale_discount", "20%"), ("sale_start", localTime(start)), ("sale_end", localTime(end)),
        ])
    }

    @Test func aPanelKilledMidSaleEndsItAfterItsRestartExactlyOnce() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sale-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await Self.start(data)
        let before = try await Self.discount(first, 1)
        let start = Date() + 2, end = Date() + 5
        #expect(try await Self.schedule(first, product: 1, start: start, end: end).status == 303)
        try await Self.poll("the start") { try await first.browser.get("/sales").text.contains("data-state=\"running\"") }
        let startedAt = Date()
        #expect(startedAt.timeIntervalSince(start) < 5)
        #expect(try await Self.discount(first, 1) != before)
        first.started.child.signal(SIGKILL)
        _ = try await offPool { first.started.child.wait(seconds: 30) }

        try await Self.poll("the end passing while stopped", seconds: 10) { Date() > end + 0.5 }
        let second = try await Self.start(data)
        try await Self.poll("the end after the restart") { try await second.browser.get("/sales").text.contains("data-state=\"ended\"") }
        #expect(try await Self.discount(second, 1) == before)
        let history = try await second.browser.get("/activity?product=1")
        #expect(history.count(of: "data-action=\"sale-start\"") == 1)
        #expect(history.count(of: "data-action=\"sale-end\"") == 1)
        #expect(try await ExecutableTests.stop(second.started.child) == 0)
    }

    @Test func aSaleThatFellWhollyWhileStoppedIsNotStartedAndSaysWhy() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sale-over-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await Self.start(data)
        let before = try await Self.discount(first, 2)
        let end = Date() + 4
        #expect(try await Self.schedule(first, product: 2, start: Date() + 2, end: end).status == 303)
        #expect(try await ExecutableTests.stop(first.started.child) == 0)

        try await Self.poll("the end passing while stopped", seconds: 10) { Date() > end + 0.5 }
        let second = try await Self.start(data)
        try await Self.poll("the sale closed") { try await second.browser.get("/sales").text.contains("data-state=\"ended\"") }
        let page = try await second.browser.get("/sales").text
        #expect(page.contains("data-sale-note>Not started: the panel was stopped"))
        #expect(try await Self.discount(second, 2) == before)
        #expect(try await second.browser.get("/activity?product=2").count(of: "data-action=\"sale-start\"") == 0)
        #expect(try await ExecutableTests.stop(second.started.child) == 0)
    }
}
