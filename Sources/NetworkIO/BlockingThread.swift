import Foundation

/// The one way to run blocking work (file I/O, fsync, DNS, waiting for a thread) off Swift's
/// concurrency pool.
///
/// On Linux that pool, which `DispatchQueue.global()` shares, has about one thread per core,
/// so a blocking call there stalls every server in the process. A `BlockingThread` runs its
/// work, one item at a time and in order, on a thread of its own: the thread starts when work
/// arrives and ends once the queue is empty, so an idle one holds no thread.
///
/// Use it as an actor's executor (`unownedExecutor`) for an actor whose methods block, or call
/// `run` for a single blocking call. A fresh instance per call gives parallelism.
public final class BlockingThread: SerialExecutor, @unchecked Sendable {
    private enum Item {
        case job(UnownedJob)
        case work(() -> Void)
    }

    private let queue = Locked<(items: [Item], running: Bool)>(([], false))

    public init() {}

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
        let start = queue.withLock { q -> Bool in
            q.items.append(item)
            defer { q.running = true }
            return !q.running
        }
        guard start else { return }
        Thread.detachNewThread { [self] in drain() }
    }

    private func drain() {
        while true {
            let batch = queue.withLock { q -> [Item] in
                if q.items.isEmpty { q.running = false }
                defer { q.items.removeAll() }
                return q.items
            }
            if batch.isEmpty { return }
            for item in batch {
                switch item {
                case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
                case .work(let work): work()
                }
            }
        }
    }
}
