import Foundation

/// Bytes in: from the transport into the parser, and parser events into state transitions.
extension Connection {
    /// Reads what the transport has (a few buffers at most, so one busy client cannot starve
    /// the loop's other connections), then lets the parser's events drive the state.
    func readAvailable() {
        let buffer = loop.readBuffer
        for _ in 0..<4 {
            switch transport.read(into: buffer) {
            case .bytes(let n):
                received(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                if n < buffer.count { return afterReading() }
            case .wouldBlock:
                return afterReading()
            case .closed:
                parser.endInput()
                return afterReading()
            case .failed, .done:
                return close()
            }
            if case .closed = state { return }
        }
        // The read budget went on full buffers: more may wait, and inside a TLS transport
        // epoll cannot see it. Come back after the loop's other connections had their turn.
        loop.execute { [self] in
            if case .closed = state { return }
            readAvailable()
            updateInterest()
        }
        afterReading()
    }

    private func received(_ bytes: UnsafeRawBufferPointer) {
        let now = monotonicNanos()
        switch state {
        case .closed, .lingering, .streaming:
            return   // dropped
        case .readingHead(let since, nil) where parser.isIdle:
            state = .readingHead(since: since, headStarted: now)
        case .readingHead:
            break
        case .startingHandler(let exchange), .awaitingHandler(let exchange), .writing(let exchange),
             .finishingBody(let exchange):
            exchange.lastByteAt = now
        }
        if parser.needsStorage { parser.adoptStorage(home.lendReceiveBuffer()) }
        parser.feed(bytes)
    }

    private func afterReading() {
        switch state {
        case .closed: return
        case .lingering: if parser.inputEnded { close() }
        default: process()
        }
    }

    /// Pulls events out of the parser until it needs more bytes or the state must wait (for a
    /// handler, a paused body, the rest of a response).
    func process() {
        while true {
            switch state {
            case .closed, .lingering:
                return
            case .streaming:
                // Nothing is read from a pushed stream's client; its end of input means it left.
                if parser.inputEnded { close() }
                return
            case .readingHead:
                switch parser.next() {
                case .head(let head):
                    begin(head)
                case .needMore:
                    // Idle: the receive buffer goes back to the loop until bytes come again.
                    if let storage = parser.takeStorageIfEmpty() { home.takeBack(receiveBuffer: storage) }
                    if parser.inputEnded { close() }
                    return
                case .error(let error):
                    return sendError(status: error.status, reason: error.reason)
                case .body, .end:
                    return close()   // the parser never sends these before a head
                }
            case .startingHandler(let exchange), .awaitingHandler(let exchange), .writing(let exchange),
                 .finishingBody(let exchange):
                guard exchange.reception == .receiving else { return }
                if case .awaitingHandler = state, exchange.body.shouldPause(resume: { [self] in
                    loop.execute { [self] in resumeBody(exchange) }
                }) {
                    exchange.reception = .paused
                    return
                }
                switch parser.next() {
                case .body(let piece):
                    if case .awaitingHandler = state { exchange.body.append(Data(piece)) }   // else dropped
                case .end:
                    exchange.reception = .complete
                    exchange.body.finish()
                    if case .finishingBody = state { startNextRequest() }
                case .needMore:
                    if parser.inputEnded { bodyCutShort(exchange) }
                    return
                case .error(let error):
                    exchange.failBody(HTTPError(status: error.status, message: error.reason))
                    if case .finishingBody = state { linger() }
                    return
                case .head:
                    return close()
                }
            }
        }
    }

    /// The client closed its side in the middle of a body.
    private func bodyCutShort(_ exchange: Exchange) {
        exchange.failBody(HTTPError(status: 400, message: "Client closed the connection"))
        if case .finishingBody = state { close() }   // the answer is out and nothing more can come
    }

    /// The handler read enough of a paused body: read the socket again.
    private func resumeBody(_ exchange: Exchange) {
        guard case .awaitingHandler(let current) = state, current === exchange, exchange.reception == .paused else { return }
        exchange.reception = .receiving
        exchange.lastByteAt = monotonicNanos()
        process()
        updateInterest()
    }

    /// A head arrived: route it and start its handler.
    private func begin(_ head: RequestHead) {
        if answerStatically(head) { return }
        let router = context.router
        guard let target = RequestTarget(head.target) else {
            return sendError(status: 400, reason: "Bad request target")
        }
        let match = router.match(method: head.method, segments: target.segments)
        let limit = router.bodyLimit(for: match, default: context.limits.defaultBodyLimit)
        parser.setBodyLimit(limit)
        var bodyRefused = false
        if case .length(let n) = head.framing, n > limit {
            // Refused from Content-Length alone: the body is never read.
            guard case .found = match, router.rendersRefusals else {
                return sendError(status: 413, reason: "Body exceeds the limit", method: head.method)
            }
            bodyRefused = true   // the router's refusal handler renders the 413
        }
        let hasBody = head.framing != .none && head.framing != .length(0) && !bodyRefused
        if head.expectsContinue && hasBody {
            writer.append(ResponseHead.continueLine)
            flush()
        }
        let body = hasBody ? RequestBody(streaming: ()) : RequestBody()
        let exchange = Exchange(method: head.method, version: head.version, framing: head.framing, body: body,
                                clientAllows: head.keepAlive ? .keepAlive : .close)
        if bodyRefused {
            // Nothing more is parsed here: what the client still sends is dropped while lingering.
            exchange.reception = .complete
            exchange.require(.linger)
        }
        if case .found(_, let template, _) = match { exchange.route = template }

        // The handler may outlive the receive buffer's contents: its head gets its own copy.
        let request = HTTPRequest(method: head.method, target: head.target, parsed: target, version: head.version,
                                  headers: head.detachedHeaders, remoteAddress: remoteAddress, body: body)
        let loop = self.loop
        guard context.handlersOnEventLoop else {
            state = .awaitingHandler(exchange)
            Task.detached { [self, bodyRefused] in
                respondLater(await router.respond(to: request, match: match, bodyRefused: bodyRefused), to: exchange)
            }
            return
        }
        // Started right here on the loop's thread: a handler that finishes without suspending (a
        // redirect, a refusal by a middleware, a page from memory) has its answer by the time
        // `Task.immediate` returns, and it is sent from here, without a trip through the loop's
        // queue. One that suspends goes on on this loop, as before (its code after a suspension
        // runs on the loop's thread too, so the state is only ever read there).
        state = .startingHandler(exchange)
        Task.immediate(executorPreference: loop) { [self, bodyRefused] in
            let response = await router.respond(to: request, match: match, bodyRefused: bodyRefused)
            if loop.inLoopThread, case .startingHandler(let starting) = state, starting === exchange {
                exchange.inlineResponse = response
                return
            }
            respondLater(response, to: exchange)
        }
        guard case .startingHandler(let starting) = state, starting === exchange else { return }
        state = .awaitingHandler(exchange)
        guard let response = exchange.inlineResponse else { return }
        exchange.inlineResponse = nil
        guard !hasBody && !bodyRefused else {
            // Answered after the body's events, as a suspending handler's answer would be.
            return respondLater(response, to: exchange)
        }
        // A request without a body: the parser's next event is its end, taken here as the
        // parse loop would take it before a suspending handler's answer.
        let end = parser.next()
        assert(end == .end, "a request without a body ends right after its head")
        exchange.reception = .complete
        exchange.body.finish()
        // The caller's parse loop goes on to a pipelined request.
        respond(response, to: exchange)
    }

    /// A handler's answer through the loop's queue (from its task, or after the body's events):
    /// sent, then the parser goes on (the rest of a body is dropped, a pipelined request begins).
    private func respondLater(_ response: HTTPResponse, to exchange: Exchange) {
        loop.execute { [self] in
            respond(response, to: exchange)
            process()
            updateInterest()
        }
    }

    /// The response is out and the body complete: ready for the next request, which the parse
    /// loop (running, or called by whoever flushed) takes from the parser.
    func startNextRequest() {
        let now = monotonicNanos()
        state = .readingHead(since: now, headStarted: parser.isIdle ? nil : now)
        writer.reset()
    }
}
