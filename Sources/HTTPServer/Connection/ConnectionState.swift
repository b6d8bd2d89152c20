/// The life of one connection. Each state carries its own data; nothing about the connection's
/// progress lives outside this enum (the parser holds the bytes, the writer the outgoing ones).
///
/// ```
///            accept
///              │
///              ▼
///   ┌──▶ readingHead ──(head)──▶ startingHandler ─▶ awaitingHandler ──(answers)──┐
///   │      │  │  │                           │   (body arrives for the      │
///   │      │  │  └(bad head, 408, 413)──┐    │    handler meanwhile)        ▼
///   │      │  │                         └──────────────────────────────▶ writing
///   │      │  └(idle timeout, EOF,           │                           │  │  │
///   │      │    evicted, shutdown)───▶ closed ◀──(client gone, error)────┘  │  │
///   │      │                              ▲                                │  │
///   │      └─(handshake deadline)─────────┘                                │  │
///   │                                     ▲ ◀──(close: nothing unread)─────┘  │
///   │                                     │                                   │
///   │                               lingering ◀──(linger, or close with ──────┤
///   │                              (2 s or EOF)   unread input)               │
///   │                                                                         │
///   └────(keepAlive, body complete)──── finishingBody ◀──(keepAlive, a small ─┘
///                                       (rest dropped)   unread body remains)
/// ```
/// - `readingHead → startingHandler → awaitingHandler`: a complete head; the handler task
///   starts, synchronously on the loop's thread until it first suspends (with handlers on the
///   loops; otherwise straight to `awaitingHandler`). An answer given before that waits in the
///   exchange and is sent when the start returns.
/// - `readingHead → writing`: the head is refused (4xx/5xx from the parser, a 408 at the
///   header deadline, a 413 from Content-Length alone); `after` is `.linger`.
/// - `awaitingHandler → writing`: the handler's response is queued; `KeepAlivePolicy` decides
///   `exchange.after`.
/// - `writing → readingHead | finishingBody | closed | lingering`: the last byte is out; the
///   access-log line is written exactly then.
/// - `finishingBody → readingHead`: the dropped body rest ended.
/// - `awaitingHandler → streaming`: the handler answered with a pushed stream
///   (`HTTPResponse.stream`); its pieces go out as the application sends them, input is only
///   watched for the client leaving.
/// - `streaming → writing`: the application ended the stream, or the server stops (the
///   stream's farewell goes out first); the final chunk follows and the connection closes.
/// - `streaming → closed`: the client left, or stopped reading (`streamStallTimeout`,
///   `maxStreamBacklog`).
/// - `lingering → closed`: the linger time passed or the client closed its side.
/// - any state `→ closed`: an I/O error, a deadline, or the server closing it.
enum ConnectionState {
    /// Between requests. `since`: when the connection became idle (or was accepted);
    /// `headStarted`: when the first byte of the next head arrived, nil while idle.
    case readingHead(since: UInt64, headStarted: UInt64?)
    /// The handler's task runs inside `Connection.begin` (`Task.immediate`) and has not
    /// suspended yet: an answer it gives now waits in `Exchange.inlineResponse`.
    case startingHandler(Exchange)
    /// The handler runs; the request body, if any, streams to it.
    case awaitingHandler(Exchange)
    /// The response goes out; body bytes still arriving are dropped.
    case writing(Exchange)
    /// A pushed stream is open: its head is out, pieces come from the application's writer.
    case streaming(Exchange, EventStreamWriter)
    /// The response is out and logged; the rest of a small unread body is read and dropped
    /// before the next request.
    case finishingBody(Exchange)
    /// Write side shut; input is read and dropped until `until` or the client's EOF.
    case lingering(until: UInt64)
    case closed

    /// The request in progress, if any.
    var exchange: Exchange? {
        switch self {
        case .startingHandler(let e), .awaitingHandler(let e), .writing(let e), .finishingBody(let e),
             .streaming(let e, _): e
        case .readingHead, .lingering, .closed: nil
        }
    }
}

/// How far the request body has come in.
enum BodyReception: Equatable {
    /// Bytes arrive (for the handler while it runs; dropped once it answered).
    case receiving
    /// The handler has `RequestBody.highWater` bytes unread: reading stops until it catches up.
    case paused
    case complete
    /// Cut short (deadline, bad framing, client gone): the connection closes after answering.
    case failed
}

/// One request and its response, from head to last byte.
///
/// `@unchecked Sendable`: handler tasks carry it back to `Connection.respond` only as an
/// identity token; every field is read and written on the connection's event-loop thread.
final class Exchange: @unchecked Sendable {
    let method: String
    let version: String
    let framing: BodyFraming
    let body: RequestBody
    /// What the request's version and `Connection` header allow after the response:
    /// `.keepAlive` or `.close`.
    let clientAllows: AfterResponse
    let started: UInt64
    var route = "-"
    var reception = BodyReception.receiving
    /// Only ever made harsher (see `AfterResponse`).
    var after = AfterResponse.keepAlive
    /// When the last body byte arrived (the body deadline counts from it).
    var lastByteAt: UInt64
    var status = 0
    var bytesSent = 0
    /// The handler's answer when it came before its task first suspended (`startingHandler`).
    /// Kept here rather than in the connection, so an idle connection does not carry its room.
    var inlineResponse: HTTPResponse?

    init(method: String, version: String, framing: BodyFraming, body: RequestBody, clientAllows: AfterResponse) {
        self.method = method
        self.version = version
        self.framing = framing
        self.body = body
        self.clientAllows = clientAllows
        started = monotonicNanos()   // one clock read for both: this runs once per request
        lastByteAt = started
    }

    /// Raises the decision about what follows the response (never lowers it).
    func require(_ next: AfterResponse) { after = max(after, next) }

    /// The body is cut short: the handler sees `error`, the connection closes after answering.
    func failBody(_ error: HTTPError) {
        reception = .failed
        body.fail(error)
        require(.close)
    }

    var isReceivingBody: Bool { reception == .receiving }
}
