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

public struct ParserLimits: Sendable, Equatable {
    public var maxRequestLineBytes = 8 * 1024
    public var maxHeaderBytes = 32 * 1024
    public var maxHeaderCount = 100
    /// The largest body accepted; the connection lowers or raises it per route.
    public var bodyLimit = 1024 * 1024
    /// A chunk-size line with its extensions.
    public var maxChunkLineBytes = 1024

    public init(maxRequestLineBytes: Int = 8 * 1024, maxHeaderBytes: Int = 32 * 1024, maxHeaderCount: Int = 100,
                bodyLimit: Int = 1024 * 1024) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.bodyLimit = bodyLimit
    }
}
