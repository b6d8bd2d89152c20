import Foundation

/// What a response carries after its head.
public enum ResponseBody: Sendable {
    case empty
    case data(Data)
    /// A file streamed from disk with `sendfile`; the server sets Content-Length from its size.
    case file(path: String)
    /// Pieces produced while sending; sent chunked (HTTP/1.1) or until close (HTTP/1.0).
    case stream(AsyncThrowingStream<Data, any Error>)
    /// A body the handler goes on writing to after it answered (server-sent events): the
    /// connection waits on its event loop like an idle one, with no task or thread of its own.
    case pushed(PushedStream)
}

/// What `HTTPResponse.stream` hands the server: who writes the body, and its last piece when
/// the server stops.
public struct PushedStream: Sendable {
    /// Sent as the stream's last piece when the server stops cleanly (e.g. `event: bye`).
    public var farewell: [UInt8]
    /// Called on the connection's event loop once the head is queued; keep the writer and send
    /// to it from anywhere. It must return quickly.
    public var open: @Sendable (EventStreamWriter) -> Void
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: ResponseBody

    public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: ResponseBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func text(_ s: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders(.contentType, "text/plain; charset=utf-8"),
                     body: .data(Data(s.utf8)))
    }

    public static func html(_ s: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders(.contentType, "text/html; charset=utf-8"),
                     body: .data(Data(s.utf8)))
    }

    public static func json(_ d: Data, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders(.contentType, "application/json"), body: .data(d))
    }

    public static func redirect(to location: String, status: Int = 303) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders(.location, location))
    }

    /// A response whose body the handler writes later, piece by piece, through the
    /// `EventStreamWriter` given to `open` (sent chunked; over HTTP/1.0 until the close). The
    /// connection closes when the stream ends. `farewell` is the last piece at a clean stop.
    public static func stream(status: Int = 200, headers: HTTPHeaders, farewell: [UInt8] = [],
                              open: @escaping @Sendable (EventStreamWriter) -> Void) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: .pushed(PushedStream(farewell: farewell, open: open)))
    }

    public mutating func setCookie(_ cookie: SetCookie) {
        headers.add(.setCookie, cookie.headerValue)
    }

    /// The body as bytes when it is in memory (tests and middleware use it).
    public var bodyData: Data? {
        switch body {
        case .empty: Data()
        case .data(let d): d
        case .file, .stream, .pushed: nil
        }
    }
}
