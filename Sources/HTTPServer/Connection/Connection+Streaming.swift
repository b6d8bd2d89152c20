import Foundation

/// Pushed streams (`HTTPResponse.stream`): the connection sits in `streaming` on its loop, like
/// an idle one, while the application sends pieces through its `EventStreamWriter`.
extension Connection {
    /// The handler answered with a pushed stream: its head is queued; hand the application
    /// its writer. Input from here on is only watched for the client leaving.
    func openPushedStream(_ pushed: PushedStream, chunked: Bool, exchange: Exchange) {
        let stream = EventStreamWriter(connection: self, farewell: pushed.farewell, chunked: chunked,
                                       backlogLimit: context.limits.maxStreamBacklog)
        state = .streaming(exchange, stream)
        // Nothing more is parsed: the receive buffer goes back to the loop, as for an idle connection.
        if let storage = parser.takeStorageIfEmpty() { home.takeBack(receiveBuffer: storage) }
        pushed.open(stream)
        if context.isDraining { endPushedStream(stream, farewell: true) }
    }

    /// One piece from the application, framed and queued.
    func pushStreamPiece(_ piece: [UInt8], from stream: EventStreamWriter) {
        guard case .streaming(let exchange, let current) = state, current === stream else {
            _ = stream.arrived(piece.count, buffered: 0)
            return
        }
        queueStreamPiece(piece, chunked: stream.chunked, exchange: exchange)
        guard stream.arrived(piece.count, buffered: writer.bufferedByteCount) else {
            return close()   // the reader is far behind: drop it rather than queue without bound
        }
        flush()
        updateInterest()
    }

    /// Ends the stream: the farewell (at a stop), then the final chunk; the connection closes
    /// once they are out.
    func endPushedStream(_ stream: EventStreamWriter, farewell: Bool) {
        guard case .streaming(let exchange, let current) = state, current === stream else { return }
        if farewell { queueStreamPiece(stream.farewell, chunked: stream.chunked, exchange: exchange) }
        if stream.chunked { writer.append("0\r\n\r\n".utf8) }
        state = .writing(exchange)
        stream.detach()
        flush()
        updateInterest()
    }

    /// The server stops: a pushed stream says its farewell and ends.
    func endStreamForStop() {
        if case .streaming(_, let stream) = state { endPushedStream(stream, farewell: true) }
    }

    private func queueStreamPiece(_ piece: [UInt8], chunked: Bool, exchange: Exchange) {
        guard !piece.isEmpty else { return }
        if chunked { writer.append((String(piece.count, radix: 16) + "\r\n").utf8) }
        writer.append(piece)
        if chunked { writer.append([ASCII.cr, ASCII.lf]) }
        exchange.bytesSent += piece.count
    }
}
