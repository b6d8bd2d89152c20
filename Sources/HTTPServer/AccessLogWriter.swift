import Foundation

/// Writes access-log lines on a thread of its own, so an event loop never waits for the log.
///
/// `write` only appends to a bounded queue. When the sink stalls (a full pipe, a terminal on
/// hold, a slow disk) the queue fills up; further lines are dropped and counted, and once the
/// sink takes bytes again the log says how many were lost. Lines are written in batches.
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
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }

    deinit { shared.stop() }

    /// Queues one line (without its newline). Never blocks on the sink.
    public func write(_ line: String) { shared.append(line) }

    /// Lines dropped so far because the sink could not keep up.
    public var droppedLines: Int { shared.state.withLock { $0.droppedTotal } }

    /// Lines queued and not yet handed to the sink.
    public var pendingLines: Int { shared.state.withLock { $0.lines.count } }

    /// Blocks until every line queued before this call is in the sink (the sink's write has
    /// returned), skipping the pause between batches. The clean stop calls it after the last
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
        }

        let state = Locked(State())
        private let wake = NSCondition()
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
                guard s.lines.count < capacity else {
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
            wake.lock(); wake.signal(); wake.unlock()
        }

        func drain() {
            let target = state.withLock { s -> Int in
                s.draining += 1
                return s.queuedTotal
            }
            defer { state.withLock { $0.draining -= 1 } }
            wake.lock(); wake.signal(); wake.unlock()
            written.lock()
            while state.withLock({ $0.writtenTotal < target && !$0.finished }) {
                _ = written.wait(until: Date().addingTimeInterval(0.1))
            }
            written.unlock()
        }

        func run() {
            while true {
                wake.lock()
                while state.withLock({ s in
                    s.writerIdle = s.lines.isEmpty && s.droppedSinceReport == 0 && !s.stopped
                    return s.writerIdle
                }) {
                    _ = wake.wait(until: Date().addingTimeInterval(1))
                }
                wake.unlock()
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
    }
}
