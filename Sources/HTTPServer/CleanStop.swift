import Dispatch
import Foundation

/// The one stop order of both executables (docs/stopping.md), on SIGTERM or SIGINT:
///
/// 1–3. each listener's `stop` step, the last added first (the panel, then the embedded sandbox
///      it talks to): stop accepting, let exchanges in flight finish under a deadline, close idle
///      keep-alive connections, then finish queued writes and close the databases;
/// 4.   drain the access-log writer completely (its sink has taken every line);
/// 5.   exit 0.
///
/// A second signal during the stop makes it quicker, never lossy: each step's `hurry` ends the
/// wait for exchanges in flight (they are cut off unanswered, so they have no log line to lose);
/// queued writes and the log are still finished.
public final class CleanStop: Sendable {
    private struct Step: Sendable {
        let stop: @Sendable () async -> Void
        let hurry: @Sendable () -> Void
    }

    private let state = Locked<(signals: Int, steps: [Step])>((0, []))
    private let accessLog: AccessLogWriter?
    private let announce: @Sendable (String) -> Void

    /// - Parameters:
    ///   - accessLog: the writer drained before exiting (the one every server here logs to).
    ///   - announce: prints "Stopping…" (the first signal) and "Stopping sooner…" (later ones).
    public init(accessLog: AccessLogWriter? = .standardError, announce: @escaping @Sendable (String) -> Void) {
        self.accessLog = accessLog
        self.announce = announce
    }

    /// Adds what one listener does at the stop; `hurry` is called on every later signal.
    public func add(stop: @escaping @Sendable () async -> Void, hurry: @escaping @Sendable () -> Void = {}) {
        state.withLock { $0.steps.append(Step(stop: stop, hurry: hurry)) }
    }

    /// Takes over SIGINT and SIGTERM. Keep the answer alive as long as the process runs.
    public func listen() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in signalled() }
            source.resume()
            return source
        }
    }

    /// What one SIGINT or SIGTERM does (public so a test or a supervisor thread can ask too).
    public func signalled() {
        let (count, steps) = state.withLock { s -> (Int, [Step]) in
            s.signals += 1
            return (s.signals, s.steps)
        }
        guard count == 1 else {
            announce("Stopping sooner: requests still running are cut off; the log and queued writes are still finished.")
            for step in steps { step.hurry() }
            return
        }
        announce("Stopping…")
        let accessLog = self.accessLog
        Task.detached {
            for step in steps.reversed() { await step.stop() }
            if let accessLog { await BlockingThread(linger: 0).run { accessLog.drain() } }
            exit(0)
        }
    }
}
