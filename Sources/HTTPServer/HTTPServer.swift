import Foundation
@_exported import NetworkIO   // Locked, Secrets, ASCII…: users of the server need no second import

/// An HTTP/1.1 server on plain sockets.
///
/// `start()` binds and returns at once; connections are served by event-loop threads and each
/// request's handler runs as a Swift task. `shutdown` stops accepting, lets requests in flight
/// finish within a deadline, then closes everything and ends the loop threads (until then they
/// run, whether or not the server object is still referenced). A server starts at most once.
public final class HTTPServer: Sendable {
    private struct Running {
        var loops: [EventLoop]
        var listener: Listener
        var port: Int
        /// One per loop when the log goes to a writer.
        var accessLogRings: [AccessLogRing]
        var accessLogWriter: AccessLogWriter?
    }

    private let configuration: ServerConfiguration
    private let context: ServerContext
    private let running = Locked<Running?>(nil)
    private let stopped = Locked(false)
    /// A second stop signal: the wait for exchanges in flight ends now.
    private let hurried = Locked(false)

    public init<Context>(configuration: ServerConfiguration = ServerConfiguration(), router: Router<Context>) {
        self.configuration = configuration
        var observer: (@Sendable (AccessLogEntry) -> Void)?
        if case .observer(let observe) = configuration.accessLogDestination { observer = observe }
        self.context = ServerContext(router: router, limits: configuration.limits, accessLog: observer,
                                     handlersOnEventLoop: configuration.runHandlersOnEventLoops,
                                     makeTransport: configuration.transportFactory)
    }

    /// Binds, listens and starts serving. Returns the real port (useful with port 0).
    @discardableResult
    public func start() throws -> Int {
        // sendfile has no MSG_NOSIGNAL: a peer that vanished mid-file must not kill the process.
        signal(SIGPIPE, SIG_IGN)
        return try running.withLock { running -> Int in
            guard running == nil, !stopped.withLock({ $0 }) else { throw ServerError.alreadyStarted }
            context.fitCapacity(toDescriptorLimit: DescriptorLimit.raise(toward: configuration.limits.maxConnections + 256))
            let (fd, port) = try Socket.listen(host: configuration.host, port: configuration.port)
            let tick = min(configuration.limits.headerTimeout, configuration.limits.idleTimeout,
                           configuration.limits.bodyTimeout, configuration.limits.writeTimeout,
                           configuration.limits.streamStallTimeout) / 10
            var loops: [EventLoop] = []
            do {
                for _ in 0..<configuration.eventLoopCount {
                    loops.append(try EventLoop(tickInterval: min(tick, .milliseconds(250))))
                }
            } catch {
                close(fd)
                throw error
            }
            var writer: AccessLogWriter?
            var rings: [AccessLogRing] = []
            if case .writer(let destination) = configuration.accessLogDestination {
                writer = destination
                let routes = AccessLogRouteNames(router: context.router)
                rings = loops.map { _ in destination.makeRing(routes: routes) { destination.write($0.line) } }
            }
            let serverLoops = loops.indices.map { ServerLoop(loops[$0], accessLogRing: rings.isEmpty ? nil : rings[$0]) }
            let listener = Listener(fd: fd, loop: loops[0], loops: serverLoops, context: context)
            let acceptLoop = loops[0]
            context.connectionClosed.withLock { callback in
                callback = ServerContext.Callback { acceptLoop.execute { listener.resume() } }
            }
            for (i, loop) in loops.enumerated() { loop.start(name: "http-loop-\(i)") }
            acceptLoop.execute { listener.start() }
            running = Running(loops: loops, listener: listener, port: port, accessLogRings: rings, accessLogWriter: writer)
            return port
        }
    }

    /// Ends `shutdown`'s wait for exchanges in flight now (a second SIGTERM/SIGINT): those still
    /// running are cut off unanswered, so no answered request loses its log line.
    public func hurry() { hurried.value = true }

    /// The bound port, or 0 before `start()`.
    public var port: Int { running.withLock { $0?.port ?? 0 } }

    /// Connections served at once: `limits.maxConnections`, or less when the process's
    /// open-file limit is lower (known after `start()`).
    public var connectionCapacity: Int { context.capacity }

    /// Open connections right now (for tests and metrics).
    public var openConnections: Int { context.openConnections }

    /// The first steps of the clean stop (docs/stopping.md): stops accepting;
    /// closes idle keep-alive connections (a request already in their socket is read and served
    /// first); lets exchanges in flight finish within `deadline` (each connection closes after
    /// its answer); then closes what is left and ends the loop threads. Every answered request
    /// has then been handed to the access log; draining the log is the caller's next step.
    public func shutdown(deadline: Duration = .seconds(5)) async {
        guard let current = running.withLock({ r -> Running? in defer { r = nil }; return r }) else { return }
        stopped.withLock { $0 = true }
        context.beginDraining()
        current.loops[0].execute { current.listener.close() }
        for loop in current.loops {
            loop.execute {
                loop.closeIdleConnections()
                // Pushed streams never finish by themselves: each says its farewell and ends.
                loop.forEachClient { ($0 as? Connection)?.endStreamForStop() }
            }
        }
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while context.openConnections > 0 && clock.now < end && !hurried.value {
            try? await Task.sleep(for: .milliseconds(10))
        }
        for loop in current.loops {
            loop.execute {
                loop.forEachClient { ($0 as? Connection)?.close() }
            }
            // `stop` blocks until the loop thread ends: off the concurrency pool.
            await BlockingThread(linger: 0).run { loop.stop() }
        }
        context.connectionClosed.withLock { $0 = nil }
        await handOver(current.accessLogRings, to: current.accessLogWriter)
    }

    /// Waits (at most 2 s) until the log thread has taken the records still in the rings, so
    /// every answered request is with the access log when `shutdown` returns. A writer stuck
    /// behind a stalled sink takes them later: the rings stay with it until they are empty.
    private func handOver(_ rings: [AccessLogRing], to writer: AccessLogWriter?) async {
        guard let writer, !rings.isEmpty else { return }
        for ring in rings { ring.retire() }
        writer.hurry()
        let clock = ContinuousClock()
        let end = clock.now + .seconds(2)
        while !rings.allSatisfy(\.isEmpty) && clock.now < end {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}

extension EventLoop {
    /// Closes connections with no request in progress (when shutting down). A request already
    /// waiting in the socket is read and served rather than dropped.
    func closeIdleConnections() {
        forEachClient { client in
            if let connection = client as? Connection, !connection.isBusy {
                _ = connection.evictIfIdle(evenWithPartialHead: true)
            }
        }
    }
}
