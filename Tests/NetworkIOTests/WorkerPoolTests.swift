import Foundation
import TestSupport
import Testing
import NetworkIO

@Suite struct WorkerPoolTests {
    /// Items that block until released, counting how many run at once.
    final class Gate: Sendable {
        let release = DispatchSemaphore(value: 0)
        let running = Locked((now: 0, most: 0, started: 0))

        func block() {
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now); $0.started += 1 }
            release.wait()
            running.withLock { $0.now -= 1 }
        }

        func open(_ count: Int) { for _ in 0..<count { release.signal() } }
    }

    @Test func runsAtMostItsWorkersAtOnceAndEveryItemInTheEnd() async throws {
        let pool = WorkerPool(workers: 2, maxWaiting: 8)
        let gate = Gate()
        let tasks = (0..<6).map { index in Task { try await pool.run(waitingAtMost: .seconds(60)) { gate.block(); return index } } }
        #expect(await eventually { gate.running.value.started == 2 && pool.waitingCount == 4 })
        gate.open(6)
        var results: [Int] = []
        for task in tasks { results.append(try await task.value) }
        #expect(results == Array(0..<6))
        #expect(gate.running.value.most == 2)
    }

    @Test func aFullQueueRefusesAtOnce() async throws {
        let pool = WorkerPool(workers: 1, maxWaiting: 2)
        let gate = Gate()
        let admitted = (0..<3).map { _ in Task { try await pool.run(waitingAtMost: .seconds(60)) { gate.block() } } }
        #expect(await eventually { gate.running.value.started == 1 && pool.waitingCount == 2 })
        await #expect(throws: WorkerPool.Refusal.full) { try await pool.run(waitingAtMost: .seconds(60)) { 1 } }
        gate.open(3)
        for task in admitted { try await task.value }
    }

    @Test func aWaitingCallerGivesUpAtItsDeadlineOrWhenCancelled() async throws {
        let pool = WorkerPool(workers: 1, maxWaiting: 4)
        let gate = Gate()
        let busy = Task { try await pool.run(waitingAtMost: .seconds(60)) { gate.block() } }
        #expect(await eventually { gate.running.value.started == 1 })

        let ranLate = Locked(false)
        let started = ContinuousClock.now
        await #expect(throws: WorkerPool.Refusal.gaveUp) {
            try await pool.run(waitingAtMost: .milliseconds(200)) { ranLate.value = true }
        }
        #expect(ContinuousClock.now - started < .seconds(10))

        let cancelled = Task { try await pool.run(waitingAtMost: .seconds(60)) { ranLate.value = true } }
        #expect(await eventually { pool.waitingCount == 1 })
        cancelled.cancel()
        await #expect(throws: WorkerPool.Refusal.gaveUp) { try await cancelled.value }
        #expect(pool.waitingCount == 0)

        gate.open(1)
        try await busy.value
        // The pool still works, and neither withdrawn item ever ran.
        #expect(try await pool.run(waitingAtMost: .seconds(60)) { 7 } == 7)
        #expect(!ranLate.value)
    }

    @Test func workersRunBelowTheLoopsPriority() async throws {
        let pool = WorkerPool(workers: 1, maxWaiting: 1)
        let nice = try await pool.run(waitingAtMost: .seconds(60)) { () -> Int in
            // Field 19 of /proc/thread-self/stat is the thread's nice value.
            let stat = (try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)) ?? ""
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            return fields.count > 16 ? Int(fields[16]) ?? -1 : -1
        }
        #expect(nice == 10)
    }
}
