/// How the length of a request body is known (RFC 9112 §6).
public enum BodyFraming: Sendable, Equatable {
    case none
    case length(Int)
    case chunked
}

/// The request line and header section, validated.
public struct RequestHead: Sendable, Equatable {
    public var method: String
    public var target: String
    public var version: String
    public var headers: HTTPHeaders
    public var framing: BodyFraming
    /// Whether the connection may carry another request after this one.
    public var keepAlive: Bool
    /// `Expect: 100-continue` on an HTTP/1.1 request.
    public var expectsContinue: Bool
}

/// Why a request was refused, with the status to answer. The connection closes afterwards.
public struct ParseError: Error, Sendable, Equatable {
    public var status: Int
    public var reason: String
}

/// What the parser found in the bytes fed so far.
public enum ParserEvent: Sendable, Equatable {
    case head(RequestHead)
    case body(ArraySlice<UInt8>)
    /// The request (head and body) is complete; the next event belongs to the next request.
    case end
    case needMore
    case error(ParseError)
}
