import Foundation

/// A serial executor that runs its jobs on a thread of its own, for an actor whose work blocks
/// (file I/O). On Linux the Swift concurrency pool, which `DispatchQueue.global()` shares, has
/// about one thread per core, so a blocking call there stalls every server in the process.
/// A thread is started when jobs arrive and ends once the queue is empty, so an idle executor
/// holds no thread; only one thread runs at a time, which keeps the jobs serial.
final class DedicatedThreadExecutor: SerialExecutor, @unchecked Sendable {
    private let lock = NSLock()
    private var queue: [UnownedJob] = []
    private var running = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.lock()
        queue.append(job)
        let start = !running
        running = true
        lock.unlock()
        guard start else { return }
        Thread.detachNewThread { [self] in drain() }
    }

    private func drain() {
        while true {
            lock.lock()
            if queue.isEmpty {
                running = false
                lock.unlock()
                return
            }
            let batch = queue
            queue.removeAll()
            lock.unlock()
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
        }
    }
}
