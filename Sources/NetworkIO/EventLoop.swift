import CEpoll
import Foundation

/// Identifies, per thread, the event loop running on it.
private let currentLoopKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

/// Something the event loop notifies about readiness. Called on the loop thread only.
public protocol EventLoopClient: AnyObject {
    func handleEvent(readable: Bool, writable: Bool, hangUp: Bool)
    /// Periodic deadline check; `now` is monotonic nanoseconds.
    func tick(now: UInt64)
}

/// One thread waiting on epoll. Sockets are only touched on this thread; other threads
/// (handler tasks) hand work over with `execute`, which wakes the loop through an eventfd.
/// Sockets never block, so no socket call ever holds one of Swift concurrency's cooperative
/// threads. The loop is also a `TaskExecutor`: a server may run its handler tasks here (no
/// thread hand-offs), and then a handler that blocks or computes for long delays this loop's
/// other connections; by default handlers run on the global executor instead.
public final class EventLoop: @unchecked Sendable {
    private let epollFD: Int32
    private let wakeFD: Int32
    /// Work from other threads; `ended` is set when the loop has stopped, after which late work
    /// is refused (dropped, or for task jobs sent to the global executor).
    private let pending = Locked<(work: [@Sendable () -> Void], ended: Bool)>(([], false))
    private let wakePending = Locked(false)

    // Loop-thread state.
    private var clients: [Int32: EventLoopClient] = [:]
    private var running = true
    private var tickHandlers: [() -> Void] = []
    private var lastTick = monotonicNanos()
    /// How often `onTick` handlers run (deadline checks).
    public let tickInterval: UInt64
    /// Shared receive buffer: data is copied out of it into the connection's parser, so idle
    /// connections keep no buffer of their own. Raw, not `[UInt8]`: every connection and client
    /// of this loop lends it to `read(2)` in turn, and an array stored in the loop would need an
    /// exclusive access (and a uniqueness check) around each read while the parser runs. Only the
    /// loop thread touches it, and nobody keeps it past the call it was lent to (the parser
    /// copies what it needs); freed in `deinit`.
    public let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    /// Work and task jobs enqueued from the loop thread itself: no lock, no wake-up needed.
    private var localWork: [() -> Void] = []
    private var localJobs: [UnownedJob] = []

    private let finished = DispatchSemaphore(value: 0)

    public init(tickInterval: Duration) throws {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw ServerError.eventLoop("epoll_create1: \(String(cString: strerror(errno)))") }
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else {
            close(epollFD)
            throw ServerError.eventLoop("eventfd: \(String(cString: strerror(errno)))")
        }
        self.tickInterval = max(5_000_000, tickInterval.nanoseconds)
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeFD
        epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event)
    }

    deinit {
        close(epollFD)
        close(wakeFD)
        readBuffer.deallocate()
    }

    public func start(name: String) {
        // The thread keeps the loop alive until `run` returns; nothing keeps the thread.
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// True on this loop's own thread (a thread-specific value set when the loop starts).
    public var inLoopThread: Bool {
        pthread_getspecific(currentLoopKey) == Unmanaged.passUnretained(self).toOpaque()
    }

    /// Runs `work` on the loop thread soon (never inline). Safe from any thread.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        if inLoopThread {
            localWork.append(work)
            return
        }
        _ = submit(work)
    }

    /// Queues work from another thread; false when the loop has ended.
    private func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
        let accepted = pending.withLock { p -> Bool in
            if p.ended { return false }
            p.work.append(work)
            return true
        }
        guard accepted else { return false }
        let needsWake = wakePending.withLock { flag -> Bool in
            defer { flag = true }
            return !flag
        }
        if needsWake {
            var one: UInt64 = 1
            _ = Glibc.write(wakeFD, &one, 8)
        }
        return true
    }

    /// Stops the loop after the current iteration and waits for its thread to end.
    public func stop() {
        precondition(!inLoopThread, "an event loop cannot wait for itself to stop")
        if submit({ [self] in running = false }) { finished.wait() }
    }

    // MARK: loop thread only

    public func onTick(_ handler: @escaping () -> Void) { tickHandlers.append(handler) }

    public func register(_ fd: Int32, _ client: EventLoopClient, readable: Bool, writable: Bool) {
        clients[fd] = client
        var event = epoll_event()
        event.events = Self.mask(readable: readable, writable: writable)
        event.data.fd = fd
        epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event)
    }

    public func modify(_ fd: Int32, readable: Bool, writable: Bool) {
        var event = epoll_event()
        event.events = Self.mask(readable: readable, writable: writable)
        event.data.fd = fd
        epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    /// Forgets `fd`; the caller closes it.
    public func unregister(_ fd: Int32) {
        epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil)
        clients[fd] = nil
    }

    private static func mask(readable: Bool, writable: Bool) -> UInt32 {
        // EPOLLRDHUP only with read interest: it stays raised after a half-close, and a level-
        // triggered event nobody wants would spin the loop. EPOLLHUP and EPOLLERR always come.
        var mask: UInt32 = 0
        if readable { mask |= EPOLLIN.rawValue | EPOLLRDHUP.rawValue }
        if writable { mask |= EPOLLOUT.rawValue }
        return mask
    }

    private func run() {
        pthread_setspecific(currentLoopKey, Unmanaged.passUnretained(self).toOpaque())
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        let capacity = Int32(events.count)
        let timeoutMS = Int32(tickInterval / 1_000_000)
        while running {
            let wait = localWork.isEmpty && localJobs.isEmpty ? timeoutMS : 0
            let n = epoll_wait(epollFD, &events, capacity, wait)
            if n < 0 && errno != EINTR { break }
            var woken = false
            for i in 0..<max(0, Int(n)) {
                let event = events[i]
                let fd = event.data.fd
                if fd == wakeFD { woken = true; continue }
                guard let client = clients[fd] else { continue }
                let flags = event.events
                client.handleEvent(
                    readable: flags & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0,
                    writable: flags & EPOLLOUT.rawValue != 0,
                    hangUp: flags & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0)
            }
            runPending(drainingWake: woken)
            runLocal()
            let now = monotonicNanos()
            if now - lastTick >= tickInterval {
                lastTick = now
                for client in clients.values { client.tick(now: now) }
                for handler in tickHandlers { handler() }
            }
        }
        runPending()
        runLocal()
        let late = pending.withLock { p -> [@Sendable () -> Void] in
            p.ended = true
            defer { p.work = [] }
            return p.work
        }
        for item in late { item() }
        runLocal()
        // Tasks still waiting to run here must not be lost with the loop.
        for job in localJobs { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        localJobs = []
        localWork = []
        clients.removeAll()
        tickHandlers.removeAll()
        finished.signal()
    }

    /// Runs `body` for every registered client (loop thread only).
    public func forEachClient(_ body: (EventLoopClient) -> Void) {
        for client in clients.values { body(client) }
    }

    /// Runs task jobs and work queued from this thread, including what they queue in turn
    /// (bounded, so socket events are not starved).
    private func runLocal() {
        var rounds = 0
        while (!localJobs.isEmpty || !localWork.isEmpty) && rounds < 16 {
            rounds += 1
            let jobs = localJobs
            localJobs.removeAll(keepingCapacity: true)
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
            let work = localWork
            localWork.removeAll(keepingCapacity: true)
            for item in work { item() }
        }
    }

    /// Runs work from other threads. The eventfd is read only when epoll reported it: reading
    /// it on every turn cost a failed syscall per request. Work queued after the flag is reset
    /// writes the eventfd again, so nothing waits unseen.
    private func runPending(drainingWake: Bool = true) {
        if drainingWake {
            var drained: UInt64 = 0
            _ = Glibc.read(wakeFD, &drained, 8)
        }
        wakePending.withLock { $0 = false }
        let work = pending.withLock { p -> [@Sendable () -> Void] in
            defer { p.work.removeAll(keepingCapacity: true) }
            return p.work
        }
        for item in work { item() }
    }
}

/// Handler tasks may prefer the loop as their executor: a request is then parsed, handled and
/// answered on one thread with no hand-offs. Jobs from other threads arrive through `execute`.
extension EventLoop: TaskExecutor {
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if inLoopThread {
            localJobs.append(job)
        } else if !submit({ [self] in localJobs.append(job) }) {
            // The loop is gone (server shut down): let the task finish elsewhere.
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }
}
