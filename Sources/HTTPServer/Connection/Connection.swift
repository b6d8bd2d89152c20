import Foundation

/// One client connection, driven by its event loop: the `ConnectionState` machine (see there
/// for the states and transitions), fed by socket events and handler answers.
///
/// Everything here runs on the loop thread; handler tasks come back through `loop.execute`,
/// hence `@unchecked Sendable`. One request is handled at a time: pipelined requests wait in
/// the parser's buffer, so responses go out strictly in order.
///
/// - Reading and request events: Connection+Reading.swift
/// - Responses, errors and streams: Connection+Responding.swift
/// - Keep-alive and drain decisions: KeepAlivePolicy.swift; bytes out: ResponseWriter.swift
///
/// The parse loop (`process`) is the only place that begins a request: answers given inside it
/// (a static file, a handler that did not suspend) are flushed without re-entering it, and the
/// entry points from outside (socket events, a handler's later answer, a stream's end) call
/// `process` after they flushed, for a pipelined request or the rest of a body.
final class Connection: EventLoopClient, @unchecked Sendable {
    let fd: Int32
    /// Plain TCP or TLS: every byte in and out goes through it.
    let transport: any ConnectionTransport
    let home: ServerLoop
    var loop: EventLoop { home.loop }
    let context: ServerContext
    let remoteAddress: String

    var state: ConnectionState {
        didSet { trackIdleness(leaving: oldValue) }
    }
    /// This connection's place among its loop's idle ones (while in `readingHead`).
    var idleLink = IdleLink()
    var parser: RequestParser
    var writer = ResponseWriter()
    /// The last Host the static route admitted on this connection (see `admits(host:route:)`).
    var admittedHost: String?
    /// What epoll is currently asked to report (a cache of the registration, derived from the
    /// state by `updateInterest`).
    private var registered = SocketInterest.read

    init(fd: Int32, transport: any ConnectionTransport, loop: ServerLoop, context: ServerContext, remoteAddress: String) {
        self.fd = fd
        self.transport = transport
        self.home = loop
        self.context = context
        self.remoteAddress = remoteAddress
        self.parser = RequestParser(limits: context.limits)
        self.state = .readingHead(since: monotonicNanos(), headStarted: nil)
    }

    /// Starts watching the socket (on the loop thread).
    func start() {
        loop.register(fd, self, readable: true, writable: false)
        home.idle.insert(self)
        if transport.wantsWritable { flush() }
    }

    // MARK: events

    func handleEvent(readable: Bool, writable: Bool, hangUp: Bool) {
        // Past this turn's handshakes, a new one waits for the next turn (epoll reports the
        // socket again): requests on established connections are answered in between.
        if readable && !hangUp && transport.readStartsHandshake && !home.mayStartHandshake() { return }
        if writable {
            flush()
            process()   // the response may have ended: a pipelined request or a body's rest waits
        }
        if readable { readAvailable() }
        if hangUp { close() }
        updateInterest()
    }

    func tick(now: UInt64) {
        let limits = context.limits
        switch state {
        case .closed:
            return
        case .lingering(let until):
            if now >= until || context.isDraining { close() }
        case .readingHead(let since, let headStarted):
            if transport.isHandshaking {
                // The handshake counts toward the head's deadline, measured from accept.
                if now - since > limits.headerTimeout.nanoseconds { close() }
            } else if parser.isReceivingHead {
                if now - (headStarted ?? since) > limits.headerTimeout.nanoseconds {
                    sendError(status: 408, reason: "Request head timed out")
                }
            } else if now - since > limits.idleTimeout.nanoseconds || context.isDraining {
                close()
            }
        case .streaming(_, let stream):
            if let since = writer.stalledSince, now - since > limits.streamStallTimeout.nanoseconds {
                close()   // the reader stopped reading
            } else if context.isDraining {
                endPushedStream(stream, farewell: true)
            }
        case .startingHandler(let exchange), .awaitingHandler(let exchange), .writing(let exchange),
             .finishingBody(let exchange):
            if writer.hasPending {
                if now - writer.lastAttempt > limits.writeTimeout.nanoseconds { close() }
            } else if exchange.isReceivingBody && !parser.inputEnded
                        && now - exchange.lastByteAt > limits.bodyTimeout.nanoseconds {
                exchange.failBody(HTTPError(status: 408, message: "Request body timed out"))
                if case .awaitingHandler = state { exchange.require(.linger) } else { close() }
            }
        }
        updateInterest()
    }

    // MARK: closing

    /// Half-closes and discards what the client still sends for a moment, so a response sent
    /// before reading the whole request (413, 400) is not destroyed by a TCP reset.
    func linger() {
        if parser.inputEnded { close(); return }
        shutdown(fd, Int32(SHUT_WR))
        state = .lingering(until: monotonicNanos() + KeepAlivePolicy.lingerNanos)
    }

    func close() {
        let exchange = state.exchange
        if case .closed = state { return }
        let stream: EventStreamWriter? = if case .streaming(_, let s) = state { s } else { nil }
        state = .closed
        loop.unregister(fd)
        transport.close()
        writer.discard()
        exchange?.body.fail(HTTPError(status: 400, message: "Connection closed"))
        stream?.detach()
        context.release()
    }

    private func trackIdleness(leaving old: ConnectionState) {
        switch (old, state) {
        case (.readingHead, .readingHead): break
        case (.readingHead, _): home.idle.remove(self)
        case (_, .readingHead): home.idle.insert(self)
        default: break
        }
    }

    /// Closes the connection to make room for a new one, unless it is in fact busy: a request
    /// already in the socket is read (and then served) rather than lost. True if it closed.
    func evictIfIdle(evenWithPartialHead: Bool) -> Bool {
        guard case .readingHead = state else { return false }
        readAvailable()
        updateInterest()
        guard case .readingHead = state, parser.isIdle || evenWithPartialHead else { return false }
        close()
        return true
    }

    /// True while a request is in progress (shutdown waits for these).
    var isBusy: Bool { state.exchange != nil }

    // MARK: readiness

    /// Asks epoll for what the state needs: reading while a request may come or a body is
    /// wanted, writing while bytes wait for the socket.
    func updateInterest() {
        let read: Bool
        switch state {
        case .closed:
            return
        case .readingHead, .lingering, .streaming:
            read = !parser.inputEnded
        case .startingHandler(let exchange), .awaitingHandler(let exchange), .writing(let exchange),
             .finishingBody(let exchange):
            switch exchange.reception {
            case .receiving: read = !parser.inputEnded && exchange.after != .linger
            case .complete: read = !parser.inputEnded && exchange.after == .keepAlive
                && parser.bufferedByteCount <= KeepAlivePolicy.maxPipelinedBytes
            case .paused, .failed: read = false
            }
        }
        var wanted: SocketInterest = read ? .read : []
        if writer.hasPending || transport.wantsWritable { wanted.insert(.write) }
        guard wanted != registered else { return }
        let resumesReading = wanted.contains(.read) && !registered.contains(.read)
        registered = wanted
        loop.modify(fd, readable: wanted.contains(.read), writable: wanted.contains(.write))
        if resumesReading {
            // A TLS transport may hold decrypted bytes that epoll cannot report.
            loop.execute { [self] in
                guard registered.contains(.read) else { return }
                readAvailable()
                updateInterest()
            }
        }
    }
}
