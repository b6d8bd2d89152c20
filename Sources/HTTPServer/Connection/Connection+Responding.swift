import Foundation

/// Bytes out: a handler's response or a refusal into the writer, and what follows the last byte.
extension Connection {
    /// The handler's answer, back on the loop thread. The caller lets the parser go on after it.
    func respond(_ response: HTTPResponse, to exchange: Exchange) {
        guard case .awaitingHandler(let current) = state, current === exchange else { return }   // the client is gone
        if exchange.reception == .receiving || exchange.reception == .paused {
            // The handler did not read the whole body: what still comes is dropped.
            exchange.reception = .receiving
            exchange.require(KeepAlivePolicy.unreadBody(framing: exchange.framing,
                                                        maxDrainBytes: context.limits.maxDrainBytes))
        }
        exchange.status = response.status
        let isHead = exchange.method == "HEAD"
        let sendsBody = !isHead && !HTTPStatus.forbidsBody(response.status)
        var streamed = false
        switch response.body {
        case .stream: streamed = true
        case .pushed:
            streamed = true
            exchange.require(.close)   // a pushed stream ends only with its connection
        case .empty, .data, .file: break
        }
        let chunked = streamed && exchange.version == "HTTP/1.1"
        exchange.after = KeepAlivePolicy.afterResponse(
            decided: exchange.after, clientKeepAlive: exchange.clientAllows == .keepAlive,
            serverDraining: context.isDraining,
            inputEnded: parser.inputEnded, bufferedBytes: parser.bufferedByteCount,
            responseConnection: response.headers[.connection], delimitedByClose: streamed && !chunked)
        state = .writing(exchange)

        switch response.body {
        case .empty:
            queueHead(response, length: .known(0), exchange: exchange)
        case .data(let data):
            queueHead(response, length: .known(data.count), exchange: exchange)
            if sendsBody {
                writer.append(data)
                exchange.bytesSent = data.count
            }
        case .file(let path):
            switch writer.queueFile(path: path, send: sendsBody) {
            case .queued(let size):
                // The head goes first in the writer's order: buffer, then file.
                queueHead(response, length: .known(size), exchange: exchange)
                if sendsBody { exchange.bytesSent = size }
            case .missing:
                // Deleted between the handler's look and now (an image whose product was just
                // deleted): what was asked for is not there, which is a 404, not a server fault.
                answerInstead(.text("Not Found\n", status: 404), exchange: exchange, isHead: isHead)
            case .unreadable:
                answerInstead(.text("Internal Server Error\n", status: 500), exchange: exchange, isHead: isHead)
            }
        case .pushed(let pushed):
            queueHead(response, length: chunked ? .chunked : .untilClose, exchange: exchange)
            if sendsBody { openPushedStream(pushed, chunked: chunked, exchange: exchange) }
        case .stream(let stream):
            queueHead(response, length: chunked ? .chunked : .untilClose, exchange: exchange)
            if sendsBody {
                writer.openStream()
                pump(stream, chunked: chunked, exchange: exchange)
            }
        }
        flush()
    }

    /// A small text answer in place of the handler's, which could not be sent (none of its headers).
    private func answerInstead(_ response: HTTPResponse, exchange: Exchange, isHead: Bool) {
        exchange.status = response.status
        queueHead(response, length: .known(response.bodyData!.count), exchange: exchange)
        if !isHead {
            writer.append(response.bodyData!)
            exchange.bytesSent = response.bodyData!.count
        }
    }

    private func queueHead(_ response: HTTPResponse, length: ResponseHead.Length, exchange: Exchange) {
        writer.append(ResponseHead.serialize(status: response.status, headers: response.headers, length: length,
                                             keepAlive: exchange.after == .keepAlive, version: exchange.version,
                                             date: home.dates.current()))
    }

    /// Answers a request refused before a handler saw it (protocol error, deadline, limit) and
    /// lingers afterwards: the client may still be sending.
    func sendError(status: Int, reason: String, method: String = "-") {
        let body = Data((HTTPStatus.reason(status) + "\n").utf8)
        let exchange = Exchange(method: method, version: "HTTP/1.1", framing: .none, body: RequestBody(),
                                clientAllows: .close)
        exchange.reception = .complete
        exchange.require(.linger)
        exchange.status = status
        exchange.bytesSent = body.count
        state = .writing(exchange)
        var headers = HTTPHeaders()
        headers[.contentType] = "text/plain; charset=utf-8"
        writer.append(ResponseHead.serialize(status: status, headers: headers, length: .known(body.count),
                                             keepAlive: false, version: "HTTP/1.1", date: home.dates.current()))
        writer.append(body)
        flush()
    }

    // MARK: writing

    /// Hands queued bytes to the transport; when the response is complete, moves on.
    func flush() {
        switch state {
        case .closed, .lingering: return
        default: break
        }
        switch writer.flush(to: transport, fd: fd, scratch: loop.readBuffer) {
        case .failed: return close()
        case .blocked: return
        case .drained: break
        }
        if case .writing(let exchange) = state, writer.isComplete { responseWritten(exchange) }
    }

    /// The last byte is out: log the request, then keep alive, finish the body, close or linger.
    private func responseWritten(_ exchange: Exchange) {
        writer.reset()
        let finished = monotonicNanos()
        if let ring = home.accessLogRing {
            ring.append(AccessLogRecord(method: exchange.method, route: ring.routes.number(exchange.route),
                                        status: exchange.status, bytes: exchange.bytesSent,
                                        started: exchange.started, finished: finished))
        } else if let observe = context.accessLog {
            observe(AccessLogEntry(method: exchange.method, route: exchange.route, status: exchange.status,
                                   bytes: exchange.bytesSent, duration: .nanoseconds(Int64(finished - exchange.started))))
        }
        guard exchange.after == .keepAlive else {
            switch KeepAlivePolicy.closing(exchange.after, bodyComplete: exchange.reception == .complete,
                                           unreadBytes: parser.bufferedByteCount, parserFailed: parser.hasFailed) {
            case .closeNow: close()
            case .linger: linger()
            }
            return
        }
        // Whoever flushed lets the parser go on: to the next request, or the body's rest.
        if exchange.reception == .complete {
            startNextRequest()
        } else {
            state = .finishingBody(exchange)
        }
    }

    // MARK: streaming bodies

    /// Feeds a streaming body to the writer, one piece at a time: the producer waits until the
    /// previous piece is with the transport, so a slow client holds back a fast producer.
    private func pump(_ stream: AsyncThrowingStream<Data, any Error>, chunked: Bool, exchange: Exchange) {
        let loop = self.loop
        Task.detached { [self] in
            do {
                for try await piece in stream where !piece.isEmpty {
                    let open = await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
                        loop.execute { [self] in
                            enqueueStreamPiece(piece, chunked: chunked, exchange: exchange, waiter: waiter)
                            updateInterest()
                        }
                    }
                    if !open { return }
                }
                loop.execute { [self] in endStream(chunked: chunked, exchange: exchange, failed: false); updateInterest() }
            } catch {
                loop.execute { [self] in endStream(chunked: chunked, exchange: exchange, failed: true); updateInterest() }
            }
        }
    }

    private func enqueueStreamPiece(_ piece: Data, chunked: Bool, exchange: Exchange,
                                    waiter: CheckedContinuation<Bool, Never>) {
        guard case .writing(let current) = state, current === exchange else { return waiter.resume(returning: false) }
        if chunked { writer.append((String(piece.count, radix: 16) + "\r\n").utf8) }
        writer.append(piece)
        if chunked { writer.append([ASCII.cr, ASCII.lf]) }
        exchange.bytesSent += piece.count
        writer.park(waiter)
        flush()
    }

    private func endStream(chunked: Bool, exchange: Exchange, failed: Bool) {
        guard case .writing(let current) = state, current === exchange else { return }
        if failed {
            // The body is cut short: the client must see an incomplete message, so no final chunk.
            exchange.require(.close)
        } else if chunked {
            writer.append("0\r\n\r\n".utf8)
        }
        writer.endStream()
        flush()
        process()   // kept alive: a pipelined request may wait
    }
}
