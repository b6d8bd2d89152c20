/// What follows a response once its last byte is written. A decision only ever moves to a
/// harsher case (`keepAlive` → `close` → `linger`), never back.
enum AfterResponse: Int, Comparable, Sendable {
    /// Read the next request on this connection.
    case keepAlive
    /// Close, lingering only if the client may still be sending.
    case close
    /// The request was refused before it was read whole: half-close and discard input for a
    /// moment, so the client sees the answer rather than a TCP reset.
    case linger

    static func < (a: AfterResponse, b: AfterResponse) -> Bool { a.rawValue < b.rawValue }
}

/// How the last byte of a response leaves the connection.
enum Closing: Equatable {
    case closeNow
    case linger
}

/// The connection's keep-alive and drain decisions, as pure functions of what it knows, so they
/// are tested without sockets (ConnectionPolicyTests).
enum KeepAlivePolicy {
    /// The handler answered before the request body was read whole: a small rest of known size
    /// is read and dropped so the connection can be reused; anything else closes it.
    static func unreadBody(framing: BodyFraming, maxDrainBytes: Int) -> AfterResponse {
        if case .length(let n) = framing, n <= maxDrainBytes { return .keepAlive }
        return .close
    }

    /// The decision when a response is queued.
    /// - Parameters:
    ///   - decided: what earlier events already decided (a failed body, a refused request).
    ///   - clientKeepAlive: the request allows another one (HTTP/1.1 default, 1.0 keep-alive).
    ///   - serverDraining: the server is shutting down.
    ///   - inputEnded/bufferedBytes: the client half-closed; with nothing left to parse, no
    ///     further request can come.
    ///   - responseConnection: the handler's own `Connection` header, if any.
    ///   - delimitedByClose: the body's end is marked by closing (a stream over HTTP/1.0).
    static func afterResponse(decided: AfterResponse, clientKeepAlive: Bool, serverDraining: Bool,
                              inputEnded: Bool, bufferedBytes: Int, responseConnection: String?,
                              delimitedByClose: Bool) -> AfterResponse {
        guard decided == .keepAlive else { return decided }
        let handlerCloses = responseConnection?.lowercased().contains("close") ?? false
        if !clientKeepAlive || serverDraining || (inputEnded && bufferedBytes == 0) || handlerCloses
            || delimitedByClose {
            return .close
        }
        return .keepAlive
    }

    /// Closing after the response: at once when the client has nothing more in flight, else
    /// lingering, since unread input at close makes the kernel send a reset that can destroy
    /// the answer before the client reads it.
    static func closing(_ after: AfterResponse, bodyComplete: Bool, unreadBytes: Int, parserFailed: Bool) -> Closing {
        if after == .close && bodyComplete && unreadBytes == 0 && !parserFailed { return .closeNow }
        return .linger
    }

    /// Pipelined requests wait in the parser; past this many buffered bytes the connection stops
    /// reading until the current response is out.
    static let maxPipelinedBytes = 64 * 1024

    /// A lingering close lasts at most this long.
    static let lingerNanos: UInt64 = 2_000_000_000
}
