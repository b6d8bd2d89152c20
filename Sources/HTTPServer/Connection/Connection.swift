import CEpoll
import Foundation

/// One client connection, driven by its event loop.
///
/// All mutable state is touched only on the loop thread; handler tasks reach it through
/// `loop.execute`, hence `@unchecked Sendable`. One request is handled at a time: pipelined
/// requests wait in the parser's buffer, so responses go out strictly in order.
final class Connection: EventLoopClient, @unchecked Sendable {
    /// The request being handled.
    final class Exchange: @unchecked Sendable {
        let method: String
        let version: String
        let framing: BodyFraming
        let body: RequestBody
        let started = monotonicNanos()
        var keepAlive: Bool
        var route: String = "-"
        var bodyComplete = false
        /// The body was abandoned (deadline or protocol error); the connection closes after the answer.
        var bodyFailed = false
        /// The handler returned; body bytes still arriving are discarded.
        var responded = false
        /// Every byte of the response is queued.
        var responseQueued = false
        var status = 0
        var bytesSent = 0

        init(method: String, version: String, framing: BodyFraming, body: RequestBody, keepAlive: Bool) {
            self.method = method
            self.version = version
            self.framing = framing
            self.body = body
            self.keepAlive = keepAlive
        }
    }

    private enum Phase { case open, lingering, closed }

    let fd: Int32
    /// Plain TCP or TLS: every byte in and out goes through it.
    private let transport: any ConnectionTransport
    private let loop: EventLoop
    private let dates: HTTPDateCache
    private let context: ServerContext
    private let remoteAddress: String
    private var parser: RequestParser
    private var phase = Phase.open
    private var exchange: Exchange?

    private var readInterest = true
    private var writeInterest = false
    private var peerClosed = false
    private var closeAfterWrite = false
    /// Reading is suspended until the handler consumes the body it has.
    private var pausedForBody = false
    /// The request was refused before being read whole: half-close and linger instead of closing.
    private var lingerOnClose = false

    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    private var file: (fd: Int32, offset: Int, end: Int)?
    /// A streaming body waiting for the outbound buffer to drain.
    private var streamWaiter: CheckedContinuation<Bool, Never>?

    // Deadlines, in monotonic nanoseconds.
    private let acceptedAt = monotonicNanos()
    private var idleSince = monotonicNanos()
    private var headStarted: UInt64 = 0
    private var lastRead: UInt64 = 0
    private var lastWrite: UInt64 = 0
    private var lingerUntil: UInt64 = 0

    init(fd: Int32, transport: any ConnectionTransport, loop: ServerLoop, context: ServerContext, remoteAddress: String) {
        self.fd = fd
        self.transport = transport
        self.loop = loop.loop
        self.dates = loop.dates
        self.context = context
        self.remoteAddress = remoteAddress
        self.parser = RequestParser(limits: context.limits)
    }

    /// Starts watching the socket (on the loop thread).
    func start() {
        loop.register(fd, self, readable: true, writable: false)
    }

    // MARK: events

    func handleEvent(readable: Bool, writable: Bool, hangUp: Bool) {
        if writable { flush() }
        if readable && phase != .closed { readAvailable() }
        if phase != .closed && transport.wantsWritable { flush() }
        if hangUp && phase != .closed { close() }
    }

    func tick(now: UInt64) {
        let limits = context.limits
        switch phase {
        case .closed:
            return
        case .lingering:
            if now >= lingerUntil || context.isDraining { close() }
            return
        case .open:
            break
        }
        if outboundOffset < outbound.count || file != nil {
            if now - lastWrite > limits.writeTimeout.nanoseconds { close() }
        } else if let exchange {
            if !exchange.bodyComplete && !exchange.bodyFailed && !peerClosed && !pausedForBody
                && now - lastRead > limits.bodyTimeout.nanoseconds {
                exchange.bodyFailed = true
                exchange.body.fail(HTTPError(status: 408, message: "Request body timed out"))
                if exchange.responded { close() } else { closeAfterWrite = true; setReadInterest(false) }
            }
        } else if transport.isHandshaking {
            // The handshake counts toward the head's deadline, measured from accept.
            if now - acceptedAt > limits.headerTimeout.nanoseconds { close() }
        } else if parser.isReceivingHead {
            if now - headStarted > limits.headerTimeout.nanoseconds { sendError(status: 408, reason: "Request head timed out") }
        } else if now - idleSince > limits.idleTimeout.nanoseconds || context.isDraining {
            close()
        }
    }

    private func readAvailable() {
        let buffer = loop.readBuffer
        var reads = 0
        while reads < 4 {
            reads += 1
            switch transport.read(into: buffer) {
            case .bytes(let n):
                let now = monotonicNanos()
                lastRead = now
                if phase == .lingering { continue }
                if exchange == nil && parser.isIdle { headStarted = now }
                parser.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                if n < buffer.count { reads = .max }
            case .wouldBlock:
                reads = .max
            case .closed:
                peerClosed = true
                setReadInterest(false)
                reads = .max
            case .failed, .done:
                close()
                return
            }
        }
        if reads == 4 {
            // Read budget spent on full reads: more may wait, and inside a TLS transport
            // epoll cannot see it. Come back after other connections had their turn.
            loop.execute { [self] in if phase != .closed && readInterest { readAvailable() } }
        }
        if phase == .lingering {
            if peerClosed { close() }
            return
        }
        process()
        if peerClosed && phase == .open {
            if let exchange {
                // A half-close after complete requests is fine: they are all answered, then
                // the connection closes. A body cut short is not.
                if !exchange.bodyComplete {
                    exchange.bodyFailed = true
                    exchange.body.fail(HTTPError(status: 400, message: "Client closed the connection"))
                    closeAfterWrite = true
                    finishExchangeIfDone()   // already answered (e.g. draining the body): close now
                }
            } else {
                close()
            }
        }
    }

    // MARK: requests

    /// Pulls events out of the parser until it needs more bytes or a response is awaited.
    private func process() {
        while phase == .open {
            if let exchange {
                if exchange.bodyComplete {
                    // The next pipelined request waits; stop reading if it piles up.
                    if parser.bufferedByteCount > 64 * 1024 { setReadInterest(false) }
                    return
                }
                if pausedForBody { return }
                if !exchange.responded && exchange.body.shouldPause(resume: { [self] in
                    loop.execute { [self] in resumeBodyReading(exchange) }
                }) {
                    pausedForBody = true
                    setReadInterest(false)
                    return
                }
                switch parser.next() {
                case .body(let piece):
                    if !exchange.responded { exchange.body.append(Data(piece)) }
                case .end:
                    exchange.bodyComplete = true
                    exchange.body.finish()
                    finishExchangeIfDone()
                case .needMore:
                    return
                case .error(let error):
                    exchange.bodyFailed = true
                    exchange.body.fail(HTTPError(status: error.status, message: error.reason))
                    closeAfterWrite = true
                    setReadInterest(false)
                    if exchange.responded { finishExchangeIfDone(force: true) }
                    return
                case .head:
                    close()
                    return
                }
            } else {
                switch parser.next() {
                case .head(let head):
                    begin(head)
                case .needMore:
                    parser.releaseMemoryIfEmpty()
                    return
                case .error(let error):
                    sendError(status: error.status, reason: error.reason)
                    return
                case .body, .end:
                    close()
                    return
                }
            }
        }
    }

    private func resumeBodyReading(_ exchange: Exchange) {
        guard phase == .open, self.exchange === exchange, pausedForBody else { return }
        pausedForBody = false
        lastRead = monotonicNanos()
        setReadInterest(!peerClosed)
        process()
    }

    private func begin(_ head: RequestHead) {
        let router = context.router
        guard let target = RequestTarget(head.target) else {
            sendError(status: 400, reason: "Bad request target")
            return
        }
        let match = router.match(method: head.method, segments: target.segments)
        let limit = router.bodyLimit(for: match, default: context.limits.defaultBodyLimit)
        parser.setBodyLimit(limit)
        var bodyRefused = false
        if case .length(let n) = head.framing, n > limit {
            // Refused from Content-Length alone: the body is never read, so close afterwards.
            guard case .found = match, router.payloadTooLargeHandler != nil else {
                sendError(status: 413, reason: "Body exceeds the limit", method: head.method)
                return
            }
            bodyRefused = true   // the router's refusal handler renders the 413
        }
        let hasBody = head.framing != .none && head.framing != .length(0) && !bodyRefused
        if head.expectsContinue && hasBody {
            outbound.append(contentsOf: ResponseHead.continueLine)
            flush()
        }
        let body = hasBody ? RequestBody(streaming: ()) : RequestBody()
        let exchange = Exchange(method: head.method, version: head.version, framing: head.framing, body: body,
                                keepAlive: head.keepAlive)
        if bodyRefused {
            // Nothing more is parsed on this connection; what the client still sends is
            // discarded while lingering after the answer.
            exchange.bodyComplete = true
            closeAfterWrite = true
            lingerOnClose = true
            setReadInterest(false)
        }
        if case .found(let route, _) = match { exchange.route = route.pattern.template }
        self.exchange = exchange
        lastRead = monotonicNanos()

        let request = HTTPRequest(method: head.method, target: head.target, parsed: target, version: head.version,
                                  headers: head.headers, remoteAddress: remoteAddress, body: body)
        let work: @Sendable () async -> Void = { [self, bodyRefused] in
            let response = await router.respond(to: request, match: match, bodyRefused: bodyRefused)
            loop.execute { [self] in respond(response, to: exchange) }
        }
        if context.handlersOnEventLoop {
            Task(executorPreference: loop, operation: work)
        } else {
            Task.detached(operation: work)
        }
    }

    /// The handler's answer, back on the loop thread.
    private func respond(_ response: HTTPResponse, to exchange: Exchange) {
        guard phase == .open, self.exchange === exchange else { return }   // the client is gone
        exchange.responded = true
        exchange.status = response.status
        pausedForBody = false
        if !exchange.bodyComplete {
            // The handler did not read the whole body: drain a small known rest, else close.
            if case .length(let n) = exchange.framing, n <= context.limits.maxDrainBytes {} else { closeAfterWrite = true }
        }
        let keepAlive = exchange.keepAlive && !closeAfterWrite && !context.isDraining
            && !(peerClosed && parser.bufferedByteCount == 0)
            && !(response.headers["Connection"]?.lowercased().contains("close") ?? false)
        if !keepAlive { closeAfterWrite = true }
        let isHead = exchange.method == "HEAD"
        let date = dates.current()

        switch response.body {
        case .empty:
            queueHead(response, length: .known(0), keepAlive: keepAlive, exchange: exchange, date: date)
            exchange.responseQueued = true
        case .data(let data):
            queueHead(response, length: .known(data.count), keepAlive: keepAlive, exchange: exchange, date: date)
            if !isHead && !HTTPStatus.forbidsBody(response.status) {
                outbound.append(contentsOf: data)
                exchange.bytesSent = data.count
            }
            exchange.responseQueued = true
        case .file(let path):
            let fileFD = open(path, O_RDONLY | O_CLOEXEC)
            var info = stat()
            guard fileFD >= 0, fstat(fileFD, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                if fileFD >= 0 { Glibc.close(fileFD) }
                exchange.status = 500
                let error = HTTPResponse.text("Internal Server Error\n", status: 500)
                queueHead(error, length: .known(error.bodyData!.count), keepAlive: keepAlive, exchange: exchange, date: date)
                if !isHead { outbound.append(contentsOf: error.bodyData!) }
                exchange.responseQueued = true
                break
            }
            let size = Int(info.st_size)
            queueHead(response, length: .known(size), keepAlive: keepAlive, exchange: exchange, date: date)
            if isHead || size == 0 || HTTPStatus.forbidsBody(response.status) {
                Glibc.close(fileFD)
            } else {
                file = (fileFD, 0, size)
                exchange.bytesSent = size
            }
            exchange.responseQueued = true
        case .stream(let stream):
            let chunked = exchange.version == "HTTP/1.1"
            if !chunked { closeAfterWrite = true }
            queueHead(response, length: chunked ? .chunked : .untilClose, keepAlive: keepAlive && chunked,
                      exchange: exchange, date: date)
            if isHead || HTTPStatus.forbidsBody(response.status) {
                exchange.responseQueued = true
            } else {
                pump(stream, chunked: chunked, exchange: exchange)
            }
        }
        flush()
    }

    private func queueHead(_ response: HTTPResponse, length: ResponseHead.Length, keepAlive: Bool,
                           exchange: Exchange, date: String) {
        outbound.append(contentsOf: ResponseHead.serialize(status: response.status, headers: response.headers,
                                                           length: length, keepAlive: keepAlive,
                                                           version: exchange.version, date: date))
    }

    /// Feeds a streaming body to the socket, waiting whenever the outbound buffer is full.
    private func pump(_ stream: AsyncThrowingStream<Data, any Error>, chunked: Bool, exchange: Exchange) {
        Task.detached { [self] in
            do {
                for try await piece in stream where !piece.isEmpty {
                    let open = await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
                        loop.execute { [self] in enqueueStreamPiece(piece, chunked: chunked, exchange: exchange, waiter: c) }
                    }
                    if !open { return }
                }
                loop.execute { [self] in endStream(chunked: chunked, exchange: exchange, failed: false) }
            } catch {
                loop.execute { [self] in endStream(chunked: chunked, exchange: exchange, failed: true) }
            }
        }
    }

    private func enqueueStreamPiece(_ piece: Data, chunked: Bool, exchange: Exchange,
                                    waiter: CheckedContinuation<Bool, Never>) {
        guard phase == .open, self.exchange === exchange else { waiter.resume(returning: false); return }
        if chunked { outbound.append(contentsOf: Array((String(piece.count, radix: 16) + "\r\n").utf8)) }
        outbound.append(contentsOf: piece)
        if chunked { outbound.append(contentsOf: [ASCII.cr, ASCII.lf]) }
        exchange.bytesSent += piece.count
        streamWaiter = waiter
        flush()
    }

    private func endStream(chunked: Bool, exchange: Exchange, failed: Bool) {
        guard phase == .open, self.exchange === exchange else { return }
        if failed {
            // The body is cut short: the client must see an incomplete message, so no final chunk.
            closeAfterWrite = true
        } else if chunked {
            outbound.append(contentsOf: Array("0\r\n\r\n".utf8))
        }
        exchange.responseQueued = true
        flush()
    }

    /// Answers a protocol error (or a refused body) and closes the connection after writing.
    private func sendError(status: Int, reason: String, method: String = "-") {
        let body = Data((HTTPStatus.reason(status) + "\n").utf8)
        let exchange = Exchange(method: method, version: "HTTP/1.1", framing: .none, body: RequestBody(),
                                keepAlive: false)
        exchange.bodyComplete = true
        exchange.responded = true
        exchange.responseQueued = true
        exchange.status = status
        exchange.bytesSent = body.count
        self.exchange = exchange
        closeAfterWrite = true
        lingerOnClose = true
        setReadInterest(false)
        var headers = HTTPHeaders()
        headers["Content-Type"] = "text/plain; charset=utf-8"
        outbound.append(contentsOf: ResponseHead.serialize(status: status, headers: headers, length: .known(body.count),
                                                           keepAlive: false, version: "HTTP/1.1",
                                                           date: dates.current()))
        outbound.append(contentsOf: body)
        flush()
    }

    // MARK: writing

    private func flush() {
        guard phase == .open else { return }
        lastWrite = monotonicNanos()
        guard pushTransportPending() else { return }
        while outboundOffset < outbound.count {
            let result = outbound.withUnsafeBytes { all in
                transport.write(UnsafeRawBufferPointer(rebasing: all[outboundOffset...]))
            }
            switch result {
            case .bytes(let n): outboundOffset += n
            case .wouldBlock:
                if transport.wantsWritable, pushTransportPending() { continue }
                setWriteInterest(true); return
            case .closed, .failed, .done: close(); return
            }
        }
        if outbound.capacity > 64 * 1024 { outbound = [] } else { outbound.removeAll(keepingCapacity: true) }
        outboundOffset = 0
        while let current = file {
            var offset = current.offset
            switch sendFilePiece(current.fd, offset: &offset, count: min(current.end - offset, 1 << 20)) {
            case .done(let n):
                if n == 0 || offset >= current.end {
                    Glibc.close(current.fd)
                    file = nil
                } else {
                    file = (current.fd, offset, current.end)
                }
            case .wouldBlock:
                file = (current.fd, offset, current.end)
                if transport.wantsWritable, pushTransportPending() { continue }
                setWriteInterest(true)
                return
            case .closed, .failed:
                close()
                return
            }
        }
        guard pushTransportPending() else { return }
        setWriteInterest(false)
        if let waiter = streamWaiter {
            streamWaiter = nil
            waiter.resume(returning: true)
        }
        finishExchangeIfDone()
    }

    /// Sends what the transport holds; false when it must wait (write interest set) or failed (closed).
    private func pushTransportPending() -> Bool {
        guard transport.wantsWritable else { return true }
        switch transport.flushPending() {
        case .done, .bytes: return true
        case .wouldBlock: setWriteInterest(true); return false
        case .closed, .failed: close(); return false
        }
    }

    /// Sends part of a file: `sendfile` on plain TCP, else read and hand to the transport.
    private func sendFilePiece(_ file: Int32, offset: inout Int, count: Int) -> Socket.IOResult {
        if transport.canSendFile { return Socket.sendFile(fd, file: file, offset: &offset, count: count) }
        let buffer = loop.readBuffer
        let n = pread(file, buffer.baseAddress, min(count, buffer.count), off_t(offset))
        guard n > 0 else { return n == 0 ? .done(0) : .failed(errno) }
        switch transport.write(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) {
        case .bytes(let sent): offset += sent; return .done(sent)
        case .wouldBlock: return .wouldBlock
        case .closed, .done: return .closed
        case .failed(let code): return .failed(code)
        }
    }

    /// After the response is written: log it, then close or go on with the next request.
    private func finishExchangeIfDone(force: Bool = false) {
        guard let exchange, exchange.responded, exchange.responseQueued, outbound.isEmpty, file == nil,
              phase == .open else { return }
        if exchange.status != 0 {
            let elapsed = monotonicNanos() - exchange.started
            context.accessLog?(AccessLogEntry(method: exchange.method, route: exchange.route, status: exchange.status,
                                              bytes: exchange.bytesSent, duration: .nanoseconds(Int64(elapsed))))
            exchange.status = 0
        }
        if closeAfterWrite || force {
            // Unread input means the client may still be sending: linger so our answer survives.
            if !lingerOnClose && exchange.bodyComplete && parser.bufferedByteCount == 0 && !parser.hasFailed {
                close()
            } else {
                lingeringClose()
            }
            return
        }
        guard exchange.bodyComplete else { return }   // draining the rest of a small body
        self.exchange = nil
        idleSince = monotonicNanos()
        setReadInterest(!peerClosed)
        process()
        if peerClosed && self.exchange == nil && phase == .open { close() }
    }

    // MARK: closing

    /// Half-closes and discards what the client still sends for a moment, so a response sent
    /// before reading the whole request (413, 400) is not destroyed by a TCP reset.
    private func lingeringClose() {
        guard phase == .open else { return }
        if peerClosed { close(); return }
        phase = .lingering
        shutdown(fd, Int32(SHUT_WR))
        lingerUntil = monotonicNanos() + 2_000_000_000
        setReadInterest(true)
    }

    func close() {
        guard phase != .closed else { return }
        phase = .closed
        loop.unregister(fd)
        transport.close()
        if let file { Glibc.close(file.fd) }
        file = nil
        outbound = []
        exchange?.body.fail(HTTPError(status: 400, message: "Connection closed"))
        exchange = nil
        streamWaiter?.resume(returning: false)
        streamWaiter = nil
        context.release()
    }

    var isBusy: Bool { exchange != nil && phase == .open }

    private func setReadInterest(_ on: Bool) {
        guard on != readInterest, phase != .closed else { return }
        readInterest = on
        loop.modify(fd, readable: readInterest, writable: writeInterest)
        if on {
            // A TLS transport may hold decrypted bytes epoll cannot report.
            loop.execute { [self] in if phase != .closed && readInterest { readAvailable() } }
        }
    }

    private func setWriteInterest(_ on: Bool) {
        guard on != writeInterest, phase != .closed else { return }
        writeInterest = on
        loop.modify(fd, readable: readInterest, writable: writeInterest)
    }
}
