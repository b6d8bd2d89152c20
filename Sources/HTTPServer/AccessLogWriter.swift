import Foundation
import NetworkIO
import Synchronization

/// Writes access-log lines on a thread of its own, so an event loop never waits for the log.
///
/// Servers hand it fixed-size records through one ring per event loop (`makeRing`): the loops
/// share no lock, and the line is formatted here, on the log thread. `write` appends a
/// ready line to a bounded queue (for other callers). When the sink stalls (a full pipe, a
/// terminal on hold, a slow disk) rings and queue fill up; further lines are dropped and
/// counted, and once the sink takes bytes again the log says how many were lost. Lines are
/// written in batches.
public final class AccessLogWriter: Sendable {
    /// Standard error, shared by every server in the process.
    public static let standardError = AccessLogWriter(fileDescriptor: 2)

    private let shared: Shared

    /// - Parameters:
    ///   - capacity: lines held while the sink is busy; beyond it lines are dropped.
    ///   - sink: writes one batch of text (whole lines, each ending in a newline); it may block.
    public init(capacity: Int = 10_000, sink: @escaping @Sendable ([UInt8]) -> Void) {
        shared = Shared(capacity: max(1, capacity), sink: sink)
        let shared = self.shared
        let thread = Thread { shared.run() }
        thread.name = "access-log"
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Appends to a file descriptor, retrying partial writes (it never closes it).
    public convenience init(fileDescriptor fd: Int32, capacity: Int = 10_000) {
        self.init(capacity: capacity) { bytes in
            _ = FileOutput.writeAll(fd, bytes)   // a failing log sink drops the batch
        }
    }

    deinit { shared.stop() }

    /// Queues one line (without its newline). Never blocks on the sink.
    public func write(_ line: String) { shared.append(line) }

    /// Lines dropped so far because the sink could not keep up.
    public var droppedLines: Int { shared.state.withLock { $0.droppedTotal } }

    /// Lines queued and not yet handed to the sink.
    public var pendingLines: Int { shared.state.withLock { $0.lines.count } }

    /// A ring for one event loop's records; this writer's thread reads it and calls `deliver`
    /// with each entry, in the order the requests finished (across the rings of one batch).
    func makeRing(capacity: Int = AccessLogWriter.ringCapacity, routes: AccessLogRouteNames,
                  deliver: @escaping @Sendable (AccessLogEntry) -> Void) -> AccessLogRing {
        let ring = AccessLogRing(capacity: capacity, routes: routes, deliver: deliver) { [shared] in shared.recordPublished() }
        shared.state.withLock { $0.rings.append(ring) }
        return ring
    }

    /// Records per loop: at ~30,000 requests per second on one loop, 130 ms of them, while
    /// the thread gathers a batch every 5 ms. 56 bytes each: 224 KiB per loop.
    static let ringCapacity = 4096

    /// Ends the pause between batches now (a server that stops wants its rings read).
    func hurry() { shared.wakeUp() }

    /// Blocks until every line queued or put in a ring before this call is in the sink (the
    /// sink's write has returned), skipping the pause between batches. The clean stop calls it after the last
    /// connection closed and before the process exits: a line still queued at `exit` is lost.
    /// Blocking: call it from a thread of its own (`BlockingThread`), never an event loop.
    public func drain() { shared.drain() }

    /// The queue and the thread that empties it.
    private final class Shared: Sendable {
        struct State {
            var lines: [String] = []
            var droppedSinceReport = 0
            var droppedTotal = 0
            var stopped = false
            /// The thread has ended (after `stop`): nothing more will be written.
            var finished = false
            /// The writer waits for a first line; only then does `append` need to wake it.
            var writerIdle = false
            /// Lines (and drop reports) queued since the start, and those the sink has taken:
            /// `drain` waits until the second reaches what the first was when it was called.
            var queuedTotal = 0
            var writtenTotal = 0
            /// Someone waits in `drain`: no pause between batches.
            var draining = 0
            /// The loops' rings; a retired one is forgotten once empty.
            var rings: [AccessLogRing] = []
            /// Batches begun and finished: `drain` also waits for a batch begun after it was
            /// called, which has read every ring.
            var batchesStarted = 0
            var batchesFinished = 0
            /// The writer's own thread: lines it delivers from rings are never refused for room.
            var thread: pthread_t?
        }

        let state = Locked(State())
        private let wake = NSCondition()
        /// The thread waits for work: a loop that fills a ring must wake it (see `AccessLogRing.append`).
        private let sleeping = Atomic<Bool>(false)
        /// Signalled after each batch is in the sink (for `drain`).
        private let written = NSCondition()
        let capacity: Int
        let sink: @Sendable ([UInt8]) -> Void

        init(capacity: Int, sink: @escaping @Sendable ([UInt8]) -> Void) {
            self.capacity = capacity
            self.sink = sink
        }

        func append(_ line: String) {
            let first = state.withLock { s -> Bool in
                let own = s.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
                guard s.lines.count < capacity || own else {
                    s.droppedSinceReport += 1
                    s.droppedTotal += 1
                    return false
                }
                s.lines.append(line)
                s.queuedTotal += 1
                return s.writerIdle && s.lines.count == 1
            }
            if first { wake.lock(); wake.signal(); wake.unlock() }
        }

        func stop() {
            state.withLock { $0.stopped = true }
            wakeUp()
        }

        func wakeUp() { wake.lock(); wake.signal(); wake.unlock() }

        /// A loop published a record: wakes the thread if it sleeps (one atomic load otherwise).
        func recordPublished() {
            if sleeping.load(ordering: .sequentiallyConsistent) && sleeping.exchange(false, ordering: .sequentiallyConsistent) {
                wakeUp()
            }
        }

        func drain() {
            let (target, batch) = state.withLock { s -> (Int, Int) in
                s.draining += 1
                return (s.queuedTotal, s.batchesStarted + 1)
            }
            defer { state.withLock { $0.draining -= 1 } }
            wakeUp()
            written.lock()
            while state.withLock({ ($0.writtenTotal < target || $0.batchesFinished < batch) && !$0.finished }) {
                _ = written.wait(until: Date().addingTimeInterval(0.1))
            }
            written.unlock()
        }

        /// Nothing to do: no line, no drop to report, no record in a ring, no stop or drain.
        private func idle(_ s: inout State) -> Bool {
            s.lines.isEmpty && s.droppedSinceReport == 0 && !s.stopped && s.draining == 0
                && s.rings.allSatisfy { $0.isEmpty && !$0.isRetired }
        }

        func run() {
            state.withLock { $0.thread = pthread_self() }
            var records: [(record: AccessLogRecord, ring: Int, order: Int)] = []
            while true {
                wake.lock()
                while state.withLock({ s in
                    s.writerIdle = idle(&s)
                    return s.writerIdle
                }) {
                    // Announce the sleep, then look again: a record published in between is
                    // either seen here or its loop sees the flag and signals (under `wake`).
                    sleeping.store(true, ordering: .sequentiallyConsistent)
                    if state.withLock({ idle(&$0) }) { _ = wake.wait(until: Date().addingTimeInterval(1)) }
                    sleeping.store(false, ordering: .sequentiallyConsistent)
                }
                wake.unlock()
                let (batch, rings) = state.withLock { s -> (Int, [AccessLogRing]) in
                    s.batchesStarted += 1
                    return (s.batchesStarted, s.rings)
                }
                deliverRecords(from: rings, scratch: &records)
                let (lines, dropped, stopped) = state.withLock { s -> ([String], Int, Bool) in
                    defer { s.lines.removeAll(keepingCapacity: true); s.droppedSinceReport = 0 }
                    return (s.lines, s.droppedSinceReport, s.stopped)
                }
                var text: [UInt8] = []
                text.reserveCapacity(lines.count * 48 + 80)
                if dropped > 0 {
                    // Said once the sink took bytes again: these lines are gone for good.
                    text.append(contentsOf: "access log: \(dropped) lines dropped while the log could not keep up\n".utf8)
                }
                for line in lines {
                    text.append(contentsOf: line.utf8)
                    text.append(ASCII.lf)
                }
                if !text.isEmpty { sink(text) }
                let hurry = state.withLock { s -> Bool in
                    s.batchesFinished = batch
                    s.writtenTotal += lines.count
                    if stopped && lines.isEmpty && dropped == 0 { s.finished = true }
                    return s.draining > 0
                }
                written.lock(); written.broadcast(); written.unlock()
                if stopped && lines.isEmpty && dropped == 0 { return }
                // A short pause lets a burst gather into one write: under load, one wake-up (two
                // futex calls) per batch instead of per request. `stop` and `drain` end it at once.
                if !stopped && !hurry {
                    wake.lock()
                    _ = wake.wait(until: Date().addingTimeInterval(0.005))
                    wake.unlock()
                }
            }
        }

        /// Takes what every ring holds, delivers it in the order the requests finished (one
        /// loop's records are already in order: one connection's lines stay in order), then
        /// frees the slots and notes the drops. Forgets retired rings once they are empty.
        private func deliverRecords(from rings: [AccessLogRing], scratch records: inout [(record: AccessLogRecord, ring: Int, order: Int)]) {
            guard !rings.isEmpty else { return }
            var taken = [Int](repeating: 0, count: rings.count)
            var one: [AccessLogRecord] = []
            for (index, ring) in rings.enumerated() {
                one.removeAll(keepingCapacity: true)
                taken[index] = ring.peek(into: &one, limit: ring.capacity)
                for record in one { records.append((record, index, records.count)) }
            }
            if rings.count > 1 {
                records.sort { ($0.record.finishedAt, $0.order) < ($1.record.finishedAt, $1.order) }
            }
            for (record, index, _) in records { rings[index].deliver(record.entry(routes: rings[index].routes)) }
            records.removeAll(keepingCapacity: true)
            var dropped = 0
            for (index, ring) in rings.enumerated() {
                ring.release(taken[index])
                dropped += ring.takeNewDrops()
            }
            if dropped > 0 {
                // Said once the log thread caught up again: these lines are gone for good.
                append("access log: \(dropped) lines dropped while the log could not keep up")
            }
            if rings.contains(where: { $0.isRetired && $0.isEmpty }) {
                state.withLock { s in s.rings.removeAll { $0.isRetired && $0.isEmpty } }
            }
        }
    }
}
