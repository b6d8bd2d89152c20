/// How the length of a request body is known (RFC 9112 §6).
public enum BodyFraming: Sendable, Equatable {
    case none
    case length(Int)
    case chunked
}

/// The request line and header section, validated, as offsets into the bytes they came in:
/// the target and every header value stay bytes until someone asks for them as Strings.
public struct RequestHead: Sendable, Equatable {
    /// The common methods are static Strings; another is made from its bytes.
    public let method: String
    /// The request-target's bytes (a slice of the receive buffer while the head is fresh).
    let targetBytes: ArraySlice<UInt8>
    let minorVersion: Int
    public var headers: HTTPHeaders
    public var framing: BodyFraming
    /// Whether the connection may carry another request after this one.
    public var keepAlive: Bool
    /// `Expect: 100-continue` on an HTTP/1.1 request.
    public var expectsContinue: Bool

    public var target: String { String(decoding: targetBytes, as: UTF8.self) }
    public var version: String { minorVersion == 1 ? "HTTP/1.1" : "HTTP/1.0" }

    /// The parsed fields with their index, unless someone replaced `headers`.
    var fields: ParsedFields? { headers.parsed }

    /// The first value of a header the parser indexes, as bytes of the head.
    func firstValue(_ header: KnownHeader) -> ArraySlice<UInt8>? {
        if let fields { return fields.firstValue(header) }
        return headers[header].map { ArraySlice($0.utf8) }
    }

    /// The head's header fields on a copy of their own bytes, for a request that outlives the
    /// receive buffer's current contents (a handler task).
    var detachedHeaders: HTTPHeaders {
        guard let fields else { return headers }
        return HTTPHeaders(parsed: fields.detached())
    }

    static func method(_ bytes: ArraySlice<UInt8>) -> String {
        for known in knownMethods where bytes.elementsEqual(known.utf8) { return known }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let knownMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
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
