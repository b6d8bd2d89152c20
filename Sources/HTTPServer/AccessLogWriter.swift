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

    /// The queue and the thread that empties it.
    private final class Shared: Sendable {
        struct State {
            var lines: [String] = []
            var droppedSinceReport = 0
            var droppedTotal = 0
            var stopped = false
            /// The writer waits for a first line; only then does `append` need to wake it.
            var writerIdle = false
        }

        let state = Locked(State())
        private let wake = NSCondition()
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
                return s.writerIdle && s.lines.count == 1
            }
            if first { wake.lock(); wake.signal(); wake.unlock() }
        }

        func stop() {
            state.withLock { $0.stopped = true }
            wake.lock(); wake.signal(); wake.unlock()
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
                if stopped && lines.isEmpty && dropped == 0 { return }
                // A short pause lets a burst gather into one write: under load, one wake-up (two
                // futex calls) per batch instead of per request. `stop` ends the pause at once.
                if !stopped {
                    wake.lock()
                    _ = wake.wait(until: Date().addingTimeInterval(0.005))
                    wake.unlock()
                }
            }
        }
    }
}
