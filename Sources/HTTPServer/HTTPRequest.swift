import Foundation

/// A parsed request as handlers see it.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The raw request-target, e.g. `/products?page=2`.
    public var target: String
    /// The percent-decoded path without the query.
    public var path: String
    /// Decoded query items, first value wins; `queryItems` keeps them all in order.
    public var query: [String: String]
    public var queryItems: [(name: String, value: String)]
    public var version: String
    public var headers: HTTPHeaders
    /// Filled by the router, e.g. `["id": "12"]` for `/products/{id}`.
    public var pathParameters: [String: String] = [:]
    /// The matched route pattern, e.g. `/products/{id}`; logged instead of the real path.
    public var routeTemplate: String?
    public var remoteAddress: String
    public var body: RequestBody

    public var cookies: [String: String] { CookieParser.parse(headers) }

    /// The path's segments as the router matches them (each percent-decoded on its own).
    public var pathSegments: [String] { RequestTarget(target)?.segments ?? [] }

    /// Builds a request from a raw target. Throws `HTTPError(400)` when the path does not decode.
    public init(method: String = "GET", target: String, version: String = "HTTP/1.1",
                headers: HTTPHeaders = HTTPHeaders(), body: RequestBody = RequestBody(),
                remoteAddress: String = "") throws {
        guard let parsed = RequestTarget(target) else { throw HTTPError(status: 400, message: "Bad request target") }
        self.init(method: method, target: target, parsed: parsed, version: version, headers: headers,
                  remoteAddress: remoteAddress, body: body)
    }
}

extension HTTPRequest {
    /// For the connection, which has already parsed the target.
    init(method: String, target: String, parsed: RequestTarget, version: String, headers: HTTPHeaders,
         remoteAddress: String, body: RequestBody) {
        self.method = method
        self.target = target
        self.path = parsed.path
        self.queryItems = parsed.queryItems
        var query: [String: String] = [:]
        for item in parsed.queryItems where query[item.name] == nil { query[item.name] = item.value }
        self.query = query
        self.version = version
        self.headers = headers
        self.remoteAddress = remoteAddress
        self.body = body
    }
}

/// The path and query of a request-target, decoded once.
struct RequestTarget {
    /// Path segments, each percent-decoded on its own (so `%2F` stays inside one segment).
    var segments: [String]
    var path: String
    var queryItems: [(name: String, value: String)]

    init?(_ target: String) {
        var rest = Substring(target)
        // absolute-form (`http://host/path`), which proxies send: keep only the path.
        if !rest.hasPrefix("/"), let scheme = rest.range(of: "://") {
            rest = rest[scheme.upperBound...]
            if let slash = rest.firstIndex(of: "/") { rest = rest[slash...] } else { rest = "/" }
        }
        if rest == "*" { rest = "/" }
        guard rest.hasPrefix("/") else { return nil }
        let rawPath: Substring
        if let q = rest.firstIndex(of: "?") {
            rawPath = rest[..<q]
            queryItems = PercentDecoding.queryItems(rest[rest.index(after: q)...])
        } else {
            rawPath = rest
            queryItems = []
        }
        var segments: [String] = []
        for raw in rawPath.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let s = PercentDecoding.decode(raw), !s.utf8.contains(0) else { return nil }
            segments.append(s)
        }
        if segments == [""] { segments = [] }
        self.segments = segments
        self.path = "/" + segments.joined(separator: "/")
    }
}
