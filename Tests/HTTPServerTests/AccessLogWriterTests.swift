import Foundation
import Testing
import TestSupport
@testable import HTTPServer

@Suite struct AccessLogWriterTests {
    /// A sink that can be held still, recording what it was given.
    final class StallableSink: @unchecked Sendable {
        let received = Locked<[String]>([])
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let stalled = Locked(true)

        func take(_ bytes: [UInt8]) {
            if stalled.value {
                stalled.value = false
                entered.signal()
                gate.wait()   // the sink hangs, like a full pipe
            }
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            received.withLock { $0 += lines }
        }
    }

    /// `drain` returns only once every line queued before it is in the sink, even while the sink
    /// is stalled when it is called (the clean stop's step 4).
    @Test func drainWaitsUntilTheSinkHasEveryQueuedLine() async throws {
        let sink = StallableSink()
        let writer = AccessLogWriter(capacity: 1_000) { sink.take($0) }
        writer.write("first")
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { sink.entered.wait(); c.resume() }
        }
        for i in 0..<300 { writer.write("line \(i)") }
        let drained = Locked(false)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            writer.drain()
            drained.value = true
            done.signal()
        }
        // While the sink hangs, drain cannot have returned.
        #expect(done.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        #expect(!drained.value)
        sink.gate.signal()
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { done.wait(); c.resume() }
        }
        #expect(sink.received.value == ["first"] + (0..<300).map { "line \($0)" })
        writer.drain()   // nothing queued: returns at once
    }

    @Test func aStalledSinkNeverBlocksTheWriterAndDropsAreCountedThenReported() async throws {
        let sink = StallableSink()
        let writer = AccessLogWriter(capacity: 100) { sink.take($0) }
        writer.write("first")
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { sink.entered.wait(); c.resume() }
        }
        // The sink hangs now. 150 more lines must not block: 100 are queued, 50 dropped.
        let started = ContinuousClock.now
        for i in 0..<150 { writer.write("line \(i)") }
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(writer.droppedLines == 50)
        #expect(writer.pendingLines == 100)

        sink.gate.signal()   // the sink drains
        #expect(await eventually { sink.received.value.count == 102 })
        let lines = sink.received.value
        #expect(lines.first == "first")
        #expect(lines[1] == "access log: 50 lines dropped while the log could not keep up")
        #expect(Array(lines[2...]) == (0..<100).map { "line \($0)" })
        // Said once: later lines come without the note.
        writer.write("later")
        #expect(await eventually { sink.received.value.last == "later" })
        #expect(sink.received.value.filter { $0.contains("dropped") }.count == 1)
    }

    @Test func writesEveryLineInOrderInBatches() async throws {
        let received = Locked<[String]>([])
        let writer = AccessLogWriter { bytes in
            received.withLock { $0 += String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init) }
        }
        for i in 0..<500 { writer.write("GET /r/{id} 200 \(i)B 0.1ms") }
        #expect(await eventually { received.value.count == 500 })
        #expect(received.value == (0..<500).map { "GET /r/{id} 200 \($0)B 0.1ms" })
        #expect(writer.droppedLines == 0)
    }
}
