/// An error a handler (or the body parsers) throws to answer with a specific status.
/// The message is sent to the client as text/plain, so it must never contain a secret.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: Int
    public var message: String
    /// For a 413 from a form parser: which limit was passed, so an app can say it in its own
    /// words and language (the message says it in English).
    public var limit: FormLimit?

    public init(status: Int, message: String? = nil, limit: FormLimit? = nil) {
        self.status = status
        self.message = message ?? HTTPStatus.reason(status)
        self.limit = limit
    }

    public var description: String { "\(status) \(message)" }
}

/// The form limits a request can pass, each with its bound (and the field it hit, when one did).
public enum FormLimit: Sendable, Equatable {
    /// More parts than a multipart form may have.
    case parts(max: Int)
    /// One part's header lines.
    case partHeaders(maxBytes: Int)
    /// One text field (`name` as the client sent it: escape it before showing it).
    case field(name: String, maxBytes: Int)
    /// One file.
    case file(name: String, maxBytes: Int)
    /// More fields than an urlencoded form may have.
    case fields(max: Int)
}
