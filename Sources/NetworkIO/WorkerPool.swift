import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A few threads of their own for CPU-heavy work that must not wait behind one thread nor take
/// every core (the panel's photo shrinking): at most `workers` items run at once, at most
/// `maxWaiting` wait for a thread, and a waiting caller gives up when its task is cancelled or
/// its wait passes a deadline. The threads run at a lower priority (nice 10) than the event
/// loops, so pages keep answering while every worker is busy.
///
/// Threads start when work arrives and end once nothing waits, like `BlockingThread`. An item
/// that has started runs to its end: only waiting is given up.
public final class WorkerPool: Sendable {
    public enum Refusal: Error, Sendable, Equatable {
        /// `maxWaiting` items were already waiting.
        case full
        /// The caller's task was cancelled, or its wait passed the deadline, before a thread took it.
        case gaveUp
    }

    private struct Item {
        var id: UInt64
        var start: @Sendable () -> Void
        var refuse: @Sendable (Refusal) -> Void
    }

    private struct State {
        var waiting: [Item] = []
        /// Items admitted and not yet finished or withdrawn: waiting, or running.
        var admitted = 0
        var threads = 0
        var nextID: UInt64 = 0
    }

    public let workers: Int
    public let maxWaiting: Int
    private let state = Locked(State())

    public init(workers: Int, maxWaiting: Int) {
        self.workers = max(1, workers)
        self.maxWaiting = max(0, maxWaiting)
    }

    /// How many items wait for a thread now.
    public var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Runs `body` on one of the pool's threads and returns its result to the caller's task.
    public func run<T: Sendable>(waitingAtMost patience: Duration,
                                 _ body: @escaping @Sendable () -> T) async throws(Refusal) -> T {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        let outcome: Result<T, Refusal> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Refusal>, Never>) in
                let item = Item(id: id, start: { continuation.resume(returning: .success(body())) },
                                refuse: { continuation.resume(returning: .failure($0)) })
                guard admit(item) else {
                    continuation.resume(returning: .failure(.full))
                    return
                }
                // Cancelled before it was queued: the cancellation handler found nothing to withdraw.
                if Task.isCancelled { withdraw(id) }
                let seconds = Double(patience.components.seconds) + Double(patience.components.attoseconds) / 1e18
                DispatchQueue.global().asyncAfter(deadline: .now() + max(0, seconds)) { [self] in withdraw(id) }
            }
        } onCancel: {
            withdraw(id)
        }
        return try outcome.get()
    }

    /// Queues the item and starts a thread when fewer than `workers` run; false when the queue is full.
    private func admit(_ item: Item) -> Bool {
        let (admitted, startThread) = state.withLock { state -> (Bool, Bool) in
            guard state.admitted < workers + maxWaiting else { return (false, false) }
            state.admitted += 1
            state.waiting.append(item)
            guard state.threads < workers else { return (true, false) }
            state.threads += 1
            return (true, true)
        }
        if startThread { Thread.detachNewThread { [self] in work() } }
        return admitted
    }

    /// Takes the item off the queue if no thread has taken it yet, and tells its caller it gave up.
    private func withdraw(_ id: UInt64) {
        let item = state.withLock { state -> Item? in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            state.admitted -= 1
            return state.waiting.remove(at: index)
        }
        item?.refuse(.gaveUp)
    }

    private func work() {
        #if canImport(Glibc)
        // On Linux the nice value is per thread: 0 means this one.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
        while true {
            let next = state.withLock { state -> Item? in
                if state.waiting.isEmpty {
                    state.threads -= 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
            guard let next else { return }
            next.start()
            state.withLock { $0.admitted -= 1 }
        }
    }
}
