import Foundation

/// What a response carries after its head.
public enum ResponseBody: Sendable {
    case empty
    case data(Data)
    /// A file streamed from disk with `sendfile`; the server sets Content-Length from its size.
    case file(path: String)
    /// Pieces produced while sending; sent chunked (HTTP/1.1) or until close (HTTP/1.0).
    case stream(AsyncThrowingStream<Data, any Error>)
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

    public mutating func setCookie(_ cookie: SetCookie) {
        headers.add(.setCookie, cookie.headerValue)
    }

    /// The body as bytes when it is in memory (tests and middleware use it).
    public var bodyData: Data? {
        switch body {
        case .empty: Data()
        case .data(let d): d
        case .file, .stream: nil
        }
    }
}
