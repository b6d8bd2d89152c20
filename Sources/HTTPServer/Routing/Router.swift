import Foundation

public typealias HTTPHandler = @Sendable (HTTPRequest) async throws -> HTTPResponse
public typealias Middleware = @Sendable (HTTPRequest, HTTPHandler) async throws -> HTTPResponse

/// Maps method and path to a handler. Unknown paths get 404 (or `notFoundHandler`), a known
/// path with another method gets 405 with `Allow`. A GET route also answers HEAD.
public struct Router: Sendable {
    struct Route: Sendable {
        let method: String
        let pattern: RoutePattern
        let bodyLimit: Int?
        let handler: HTTPHandler
        /// `handler` inside every middleware, built when routes or middlewares change rather
        /// than on every request (it was one closure per middleware per request).
        var chained: HTTPHandler
    }

    /// The outcome of looking a request up, before its body is read.
    enum Match: Sendable {
        case found(Route, parameters: [String: String])
        case methodNotAllowed(allow: [String])
        case notFound
    }

    private(set) var routes: [Route] = []
    /// Prefixes answered on the connection's event loop, before routing (see `StaticRoute`).
    var staticRoutes: [StaticRoute] = []
    /// Applied in order: the first is the outermost. They also wrap 404 and 405 answers.
    public var middlewares: [Middleware] = [] {
        didSet { rebuildChains() }
    }
    /// Renders unknown paths; the default answers a plain-text 404.
    public var notFoundHandler: HTTPHandler? {
        didSet { rebuildChains() }
    }
    /// The 404 answer inside every middleware.
    private var notFoundChain: HTTPHandler = Router.notFound
    /// Renders the refusal of a body over the route's limit, decided from `Content-Length`
    /// before any of it is read (the body is empty here). The answer always goes out as 413 with
    /// `Connection: close`; the default is a plain-text 413. Lets an app keep its own error
    /// format (a JSON error, an HTML page) without raising route limits to see the request.
    public var payloadTooLargeHandler: HTTPHandler?

    public init() {}

    public mutating func add(_ method: String, _ pattern: String, bodyLimit: Int? = nil,
                             _ handler: @escaping HTTPHandler) {
        precondition(ASCII.isToken(method), "invalid method \(method)")
        let route = Route(method: method.uppercased(), pattern: RoutePattern(pattern), bodyLimit: bodyLimit,
                          handler: handler, chained: Self.chain(middlewares, around: handler))
        // Keep the most specific patterns first so lookup can stop at the first match.
        let index = routes.firstIndex { route.pattern.isMoreSpecific(than: $0.pattern) } ?? routes.endIndex
        routes.insert(route, at: index)
    }

    public mutating func get(_ pattern: String, _ handler: @escaping HTTPHandler) {
        add("GET", pattern, handler)
    }

    public mutating func post(_ pattern: String, bodyLimit: Int? = nil, _ handler: @escaping HTTPHandler) {
        add("POST", pattern, bodyLimit: bodyLimit, handler)
    }

    public mutating func put(_ pattern: String, bodyLimit: Int? = nil, _ handler: @escaping HTTPHandler) {
        add("PUT", pattern, bodyLimit: bodyLimit, handler)
    }

    public mutating func patch(_ pattern: String, bodyLimit: Int? = nil, _ handler: @escaping HTTPHandler) {
        add("PATCH", pattern, bodyLimit: bodyLimit, handler)
    }

    public mutating func delete(_ pattern: String, bodyLimit: Int? = nil, _ handler: @escaping HTTPHandler) {
        add("DELETE", pattern, bodyLimit: bodyLimit, handler)
    }

    public mutating func use(_ middleware: @escaping Middleware) {
        middlewares.append(middleware)
    }

    private mutating func rebuildChains() {
        for index in routes.indices { routes[index].chained = Self.chain(middlewares, around: routes[index].handler) }
        notFoundChain = Self.chain(middlewares, around: notFoundHandler ?? Self.notFound)
    }

    private static let notFound: HTTPHandler = { _ in .text("Not Found\n", status: 404) }

    /// `handler` wrapped in the middlewares, the first outermost; a handler's error becomes its answer.
    private static func chain(_ middlewares: [Middleware], around handler: @escaping HTTPHandler) -> HTTPHandler {
        let innermost: HTTPHandler = { request in
            do { return try await handler(request) } catch { return Self.errorResponse(error) }
        }
        return middlewares.reversed().reduce(innermost) { next, middleware in
            { request in try await middleware(request, next) }
        }
    }

    func match(method: String, segments: [String]) -> Match {
        var allowed: [String] = []
        for route in routes {
            guard let parameters = route.pattern.match(segments) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET"
                                          && !routes.contains { $0.method == "HEAD" && $0.pattern.match(segments) != nil }) {
                return .found(route, parameters: parameters)
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if allowed.isEmpty { return .notFound }
        if allowed.contains("GET") && !allowed.contains("HEAD") { allowed.append("HEAD") }
        return .methodNotAllowed(allow: allowed)
    }

    /// The body limit that applies to a request, decided before its body is read.
    func bodyLimit(for match: Match, default defaultLimit: Int) -> Int {
        if case .found(let route, _) = match, let limit = route.bodyLimit { return limit }
        return defaultLimit
    }

    /// Routes and runs a request through the middlewares and its handler. Never throws: an
    /// `HTTPError` becomes its status, any other error a 500. Spool files made while parsing the
    /// body are deleted once the response exists.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        guard let target = RequestTarget(request.target) else {
            return Self.errorResponse(HTTPError(status: 400, message: "Bad request target"))
        }
        return await respond(to: request, match: match(method: request.method, segments: target.segments))
    }

    func respond(to request: HTTPRequest, match: Match, bodyRefused: Bool = false) async -> HTTPResponse {
        var request = request
        let chain: HTTPHandler
        switch match {
        case .found(let route, let parameters):
            request.pathParameters = parameters
            request.routeTemplate = route.pattern.template
            chain = bodyRefused ? Self.chain(middlewares, around: Self.refusal(payloadTooLargeHandler)) : route.chained
        case .methodNotAllowed(let allow):
            chain = Self.chain(middlewares) { _ in
                var response = HTTPResponse.text("Method Not Allowed\n", status: 405)
                response.headers["Allow"] = allow.joined(separator: ", ")
                return response
            }
        case .notFound:
            chain = notFoundChain
        }
        defer { request.body.removeSpoolFiles() }
        do { return try await chain(request) } catch { return Self.errorResponse(error) }
    }

    /// The app's 413 answer, whatever status it chose: the request was not served.
    private static func refusal(_ render: HTTPHandler?) -> HTTPHandler {
        { request in
            var response = try await (render ?? { _ in .text("Content Too Large\n", status: 413) })(request)
            response.status = 413
            return response
        }
    }

    static func errorResponse(_ error: any Error) -> HTTPResponse {
        if let error = error as? HTTPError {
            return .text(error.message + "\n", status: error.status)
        }
        return .text("Internal Server Error\n", status: 500)
    }
}
