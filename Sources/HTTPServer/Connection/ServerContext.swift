import Foundation

/// What every connection of one server shares: routes, limits, the log and the open-connection
/// count (across event loops).
final class ServerContext: Sendable {
    let router: any ServerRouter
    /// The router's, read on every request's head (`answerStatically`).
    let staticRoutes: [StaticRoute]
    let limits: ServerLimits
    let accessLog: (@Sendable (AccessLogEntry) -> Void)?
    /// `capacity`: `limits.maxConnections`, lowered at start to fit the open-file limit.
    private let state: Locked<(open: Int, capacity: Int, draining: Bool)>
    /// Called (from any loop) when a connection closes, so a paused acceptor can resume.
    /// Wrapped in a struct on purpose: a bare function type inside `Locked`'s generic `inout`
    /// access is re-abstracted and written back on every call, so each read nested one more
    /// thunk around it until ~20,000 closes overflowed the stack.
    struct Callback: Sendable { let run: @Sendable () -> Void }
    let connectionClosed: Locked<Callback?> = Locked(nil)

    let handlersOnEventLoop: Bool
    /// Wraps each accepted socket: plain TCP or TLS.
    let makeTransport: ConnectionTransportFactory

    init(router: any ServerRouter, limits: ServerLimits, accessLog: (@Sendable (AccessLogEntry) -> Void)?,
         handlersOnEventLoop: Bool, makeTransport: @escaping ConnectionTransportFactory = PlainTransport.factory) {
        self.handlersOnEventLoop = handlersOnEventLoop
        self.makeTransport = makeTransport
        self.router = router
        staticRoutes = router.staticRoutes
        self.limits = limits
        self.accessLog = accessLog
        self.state = Locked((0, limits.maxConnections, false))
    }

    /// Keeps the connection count below what the process can open (listening sockets, files
    /// being sent and upstream connections need descriptors too).
    func fitCapacity(toDescriptorLimit limit: Int) {
        let reserve = 128
        state.withLock { $0.capacity = max(1, min(limits.maxConnections, limit - reserve)) }
    }

    var capacity: Int { state.withLock { $0.capacity } }

    var openConnections: Int { state.withLock { $0.open } }
    var isDraining: Bool { state.withLock { $0.draining } }

    func beginDraining() { state.withLock { $0.draining = true } }

    /// Counts a new connection unless the limit is reached.
    func admit() -> Bool {
        state.withLock { s in
            guard s.open < s.capacity else { return false }
            s.open += 1
            return true
        }
    }

    /// Gives back a slot `admit` granted for an `accept` that failed: no connection existed, so
    /// nobody is told one closed.
    func withdrawAdmission() {
        state.withLock { $0.open -= 1 }
    }

    /// A connection closed: frees its slot and lets a paused acceptor resume.
    func release() {
        withdrawAdmission()
        connectionClosed.withLock { $0 }?.run()
    }
}

/// One event loop of the server with what its connections share on that thread.
final class ServerLoop: @unchecked Sendable {   // everything but `loop` is touched on the loop thread only
    let loop: EventLoop
    let dates = HTTPDateCache()
    let idle = IdleConnections()
    /// Per static route (`Router.staticRoutes`), made on first use.
    private var staticHeads: [StaticHeadCache] = []
    /// The body of every request answered synchronously (there is none).
    let emptyBody = RequestBody()

    func staticHeads(route index: Int, of count: Int) -> StaticHeadCache {
        if staticHeads.isEmpty { staticHeads = (0..<count).map { _ in StaticHeadCache() } }
        return staticHeads[index]
    }

    /// Handshakes begun in this turn of the loop (see `mayStartHandshake`).
    private var handshakesThisTurn = 0
    /// A full TLS handshake costs ~0.1–0.3 ms of CPU (the ECDHE key exchange and the
    /// signature): 256 of them in one turn would hold every request on this loop for tens of
    /// milliseconds. At most this many start per turn; the rest come in the next turns, in
    /// the order epoll reports them (a socket left unread is reported again at the back).
    static let handshakesPerTurn = 16

    /// True if a handshake may start now; false when this turn's share is used.
    func mayStartHandshake() -> Bool {
        // Queued work runs after the turn's events: the count starts again each turn.
        if handshakesThisTurn == 0 { loop.execute { [self] in handshakesThisTurn = 0 } }
        guard handshakesThisTurn < Self.handshakesPerTurn else { return false }
        handshakesThisTurn += 1
        return true
    }

    /// This loop's access-log records on their way to the log thread (nil: no log, or an observer).
    let accessLogRing: AccessLogRing?

    init(_ loop: EventLoop, accessLogRing: AccessLogRing? = nil) {
        self.loop = loop
        self.accessLogRing = accessLogRing
    }

    /// Receive buffers given back by connections gone idle, lent to the next one that reads: an
    /// idle connection holds no buffer, and a busy loop allocates none per request.
    private var spareReceiveBuffers: [[UInt8]] = []
    private static let maxSpareReceiveBuffers = 64
    /// Larger buffers (a big upload was read into them) are freed rather than kept.
    private static let maxSpareCapacity = 16 * 1024
    private static let newReceiveCapacity = 2048

    func lendReceiveBuffer() -> [UInt8] {
        if let spare = spareReceiveBuffers.popLast() { return spare }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Self.newReceiveCapacity)
        return buffer
    }

    func takeBack(receiveBuffer: [UInt8]) {
        guard spareReceiveBuffers.count < Self.maxSpareReceiveBuffers,
              receiveBuffer.capacity <= Self.maxSpareCapacity else { return }
        spareReceiveBuffers.append(receiveBuffer)
    }

    /// Closes up to `count` connections of this loop that wait for a request, longest idle
    /// first; those with half a head come only after the truly idle ones.
    func closeLongestIdle(_ count: Int) {
        var closed = 0
        for partialHeads in [false, true] {
            var candidate = idle.oldest
            while closed < count, let connection = candidate {
                candidate = connection.idleLink.next
                if connection.evictIfIdle(evenWithPartialHead: partialHeads) { closed += 1 }
            }
        }
    }
}
