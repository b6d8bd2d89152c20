import Foundation
import TestSupport
import Testing
@testable import AdminPanel
#if canImport(Glibc)
import Glibc
#endif

/// Three pixel bombs (10,000 × 4,000 flat PNGs of about 750 KB, within the 40 MP rule) registered
/// at once without JS on the real `openmarket-admin`: the photo workers shrink them under their
/// memory budget while the list page keeps answering.
@Suite(.awaitsTeardown) struct PhotoBombTests {
    /// Peak and current resident memory of a process, in KiB (`VmHWM`, `VmRSS`).
    static func memory(of pid: Int32) throws -> (peakKiB: Int, nowKiB: Int) {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func field(_ name: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return (field("VmHWM"), field("VmRSS"))
    }

    @Test func threeBombsAtOnceStayUnderBudgetAndTheListKeepsAnswering() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("photo-bombs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let panel = try await offPool { try ExecutableTests.start(data: data) }
        Teardown.add {
            panel.child.signal(SIGKILL)
            try? FileManager.default.removeItem(at: data)
        }
        let bomb = TestPNG.bomb(width: 10_000, height: 4_000)
        // Warm: a list page and a form, so the baseline includes the pages' own memory.
        let lister = TestBrowser(port: panel.port)
        #expect(try await lister.get("/products").status == 200)
        var sellers: [(browser: TestBrowser, token: String)] = []
        for _ in 0..<3 {
            let browser = TestBrowser(port: panel.port)
            let form = try await browser.get("/products/new")
            sellers.append((browser, try #require(form.inputValue("csrf_token"))))
        }
        let baseline = try Self.memory(of: panel.child.pid)

        let finished = Counter()
        let registers = sellers.enumerated().map { index, seller in
            Task {
                defer { finished.add() }
                return try await seller.browser.postMultipart("/products", fields: RegisterRouteTests.fields(seller.token, name: "Flat poster \(index)"),
                                                              files: [.init(filename: "poster-\(index).png", type: "image/png", data: bomb)])
            }
        }
        // List pages while the bombs are shrunk: each answers within 2 s.
        var slowest: Duration = .zero
        var listedDuringShrinking = 0
        while finished.value < registers.count {
            let started = ContinuousClock.now
            let page = try await lister.get("/products")
            let took = ContinuousClock.now - started
            #expect(page.status == 200)
            slowest = max(slowest, took)
            if finished.value < registers.count { listedDuringShrinking += 1 }
        }
        for register in registers {
            let answer = try await register.value
            #expect(answer.status == 303, "\(answer.status): \(answer.text.prefix(300))")
        }
        let peak = try Self.memory(of: panel.child.pid)
        print("photo bombs: baseline \(baseline.peakKiB / 1024) MiB peak, \(baseline.nowKiB / 1024) MiB now; "
              + "after three bombs \(peak.peakKiB / 1024) MiB peak; slowest list page \(slowest), \(listedDuringShrinking) listed while shrinking")
        #expect(slowest < .seconds(2))
        #expect(listedDuringShrinking > 0, "no list page was answered while the bombs were shrunk")
        // Below 400 MiB in all, and the shrinking itself (two at a time) within two budgets and change.
        #expect(peak.peakKiB < 400 * 1024)
        #expect(peak.peakKiB - max(baseline.peakKiB, baseline.nowKiB) < (2 * ImageShrinker.pixelBudget + (32 << 20)) / 1024)

        // Each product has its photo, made small.
        let list = try await lister.get("/products")
        for index in 0..<3 { #expect(list.text.contains("Flat poster \(index)")) }
        #expect(try await ExecutableTests.stop(panel.child) == 0)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add() { lock.withLock { count += 1 } }
    }
}
