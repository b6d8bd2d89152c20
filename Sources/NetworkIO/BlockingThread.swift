import Foundation

/// The one way to run blocking work (file I/O, fsync, DNS, waiting for a thread) off Swift's
/// concurrency pool.
///
/// On Linux that pool, which `DispatchQueue.global()` shares, has about one thread per core,
/// so a blocking call there stalls every server in the process. A `BlockingThread` runs its
/// work, one item at a time and in order, on a thread of its own: the thread starts when work
/// arrives and ends once the queue has stayed empty for `linger`, so an idle one holds no thread.
///
/// Use it as an actor's executor (`unownedExecutor`) for an actor whose methods block, or call
/// `run` for a single blocking call. A fresh instance per call (`linger: 0`) gives parallelism.
public final class BlockingThread: SerialExecutor, @unchecked Sendable {
    private enum Item {
        case job(UnownedJob)
        case work(() -> Void)
    }

    /// Guards `items` and `running`; a lingering thread waits on it for more work.
    private let condition = NSCondition()
    private var items: [Item] = []
    /// Whether a thread is draining the queue or lingering for more.
    private var running = false
    /// How long a thread waits for more work before it ends. Starting a thread (clone, stack,
    /// name, teardown) costs more than most items: a database queried on every list page
    /// otherwise started one per request (a clone per 2–3 requests under load, with its system
    /// calls around it).
    private let linger: TimeInterval

    /// `linger` 0 for an instance made for one call, whose thread has nothing to wait for.
    public init(linger: TimeInterval = 0.5) {
        self.linger = linger
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    /// Runs `body` on the thread and returns its result to the caller's task.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit(.work { continuation.resume(with: Result { try body() }) })
        }
    }

    /// `run` for work that cannot fail.
    public func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            submit(.work { continuation.resume(returning: body()) })
        }
    }

    private func submit(_ item: Item) {
        condition.lock()
        items.append(item)
        let start = !running
        running = true
        condition.signal()
        condition.unlock()
        guard start else { return }
        Thread.detachNewThread { [self] in drain() }
    }

    private func drain() {
        condition.lock()
        while true {
            if items.isEmpty {
                let deadline = Date(timeIntervalSinceNow: linger)
                // `wait(until:)` is false once the deadline passed; it may also wake for nothing.
                while items.isEmpty, condition.wait(until: deadline) {}
                if items.isEmpty {
                    running = false
                    condition.unlock()
                    return
                }
            }
            let batch = items
            items.removeAll()
            condition.unlock()
            for item in batch {
                switch item {
                case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
                case .work(let work): work()
                }
            }
            condition.lock()
        }
    }
}
