import Foundation

/// A route's handler: the request and the context the middlewares passed on.
public typealias RouteHandler<Context> = @Sendable (HTTPRequest, Context) async throws -> HTTPResponse
/// Runs around the handlers: calls `next`, with the context or a changed one, to go on.
public typealias RouteMiddleware<Context> = @Sendable (HTTPRequest, Context, RouteHandler<Context>) async throws -> HTTPResponse
/// A handler that reads the request only (routes of a `BasicRequestContext` router).
public typealias HTTPHandler = @Sendable (HTTPRequest) async throws -> HTTPResponse
/// A middleware that reads the request only, on a router of any context.
public typealias Middleware = @Sendable (HTTPRequest, HTTPHandler) async throws -> HTTPResponse

/// Maps method and path to a handler. Unknown paths get 404 (or `notFoundHandler`), a known
/// path with another method gets 405 with `Allow`. A GET route also answers HEAD. Each request
/// gets a `Context` made from what was matched (`RequestContext.init(request:route:)`).
public struct Router<Context: RequestContext>: Sendable {
    public typealias Options = Context.RouteOptions

    struct Entry: Sendable {
        var route: Route<Options>
        /// The place in the order the routes were added (`routes` lists them so).
        let order: Int
        let handler: RouteHandler<Context>
        /// `handler` inside every middleware, built when routes or middlewares change rather
        /// than on every request.
        var chained: RouteHandler<Context>
    }

    /// Most specific patterns first, so lookup can stop at the first match.
    private(set) var entries: [Entry] = []
    /// Each entry's method and pattern, in the same order: what `match` walks on every request.
    /// Apart from `entries` because an `Entry` is generic over the context, and the server calls
    /// `match` through `ServerRouter`, unspecialised: walking `entries` there looked up the
    /// entry's type metadata for every route (120k instructions per request, against 12k).
    private var matchers: [RouteMatcher] = []
    /// Prefixes answered on the connection's event loop, before routing (see `StaticRoute`).
    var staticRoutes: [StaticRoute] = []
    /// Applied in order: the first is the outermost. They also wrap 404, 405 and 413 answers.
    public var middlewares: [RouteMiddleware<Context>] = [] {
        didSet { rebuildChains() }
    }
    /// Renders unknown paths; the default answers a plain-text 404.
    public var notFoundHandler: RouteHandler<Context>? {
        didSet { rebuildChains() }
    }
    /// Renders the refusal of a body over the route's limit, decided from `Content-Length`
    /// before any of it is read (the body is empty here). The answer always goes out as 413 with
    /// `Connection: close`; the default is a plain-text 413. Lets an app keep its own error
    /// format (a JSON error, an HTML page) without raising route limits to see the request.
    public var payloadTooLargeHandler: RouteHandler<Context>? {
        didSet { rebuildChains() }
    }
    /// The 404 and 413 answers inside every middleware.
    private var notFoundChain: RouteHandler<Context> = Router.notFound
    private var refusalChain: RouteHandler<Context> = Router.refusal(nil)

    public init(context: Context.Type) {}

    /// Every route, in the order added.
    public var routes: [Route<Options>] {
        entries.sorted { $0.order < $1.order }.map(\.route)
    }

    public mutating func add(_ method: String, _ pattern: String, bodyLimit: Int? = nil, options: Options,
                             _ handler: @escaping RouteHandler<Context>) {
        precondition(ASCII.isToken(method), "invalid method \(method)")
        let route = Route(method: method.uppercased(), pattern: RoutePattern(pattern), bodyLimit: bodyLimit, options: options)
        precondition(!entries.contains { $0.route.method == route.method && $0.route.pattern.template == pattern },
                     "route declared twice: \(method) \(pattern)")
        let entry = Entry(route: route, order: entries.count, handler: handler, chained: Self.chain(middlewares, around: handler))
        let index = entries.firstIndex { route.pattern.isMoreSpecific(than: $0.route.pattern) } ?? entries.endIndex
        entries.insert(entry, at: index)
        matchers.insert(RouteMatcher(method: route.method, pattern: route.pattern), at: index)
    }

    /// Sets each route's body limit from the route, for limits an app knows only once configured.
    public mutating func setBodyLimits(_ limit: (Route<Options>) -> Int?) {
        for index in entries.indices { entries[index].route.bodyLimit = limit(entries[index].route) }
    }

    public mutating func use(_ middleware: @escaping RouteMiddleware<Context>) {
        middlewares.append(middleware)
    }

    /// A middleware that passes the context on unchanged.
    public mutating func use(_ middleware: @escaping Middleware) {
        use { request, context, next in
            try await middleware(request) { request in try await next(request, context) }
        }
    }

    private mutating func rebuildChains() {
        for index in entries.indices { entries[index].chained = Self.chain(middlewares, around: entries[index].handler) }
        notFoundChain = Self.chain(middlewares, around: notFoundHandler ?? Self.notFound)
        refusalChain = Self.chain(middlewares, around: Self.refusal(payloadTooLargeHandler))
    }

    private static var notFound: RouteHandler<Context> { { _, _ in .text("Not Found\n", status: 404) } }

    /// `handler` wrapped in the middlewares, the first outermost; a handler's error becomes its answer.
    private static func chain(_ middlewares: [RouteMiddleware<Context>],
                              around handler: @escaping RouteHandler<Context>) -> RouteHandler<Context> {
        let innermost: RouteHandler<Context> = { request, context in
            do { return try await handler(request, context) } catch { return Self.errorResponse(error) }
        }
        return middlewares.reversed().reduce(innermost) { next, middleware in
            { request, context in try await middleware(request, context, next) }
        }
    }

    func match(method: String, segments: [String]) -> Match {
        var allowed: [String] = []
        var atPath: [Int] = []
        for (index, route) in matchers.enumerated() {
            guard let parameters = route.pattern.match(segments) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET"
                                          && !matchers.contains { $0.method == "HEAD" && $0.pattern.match(segments) != nil }) {
                return .found(index: index, template: route.pattern.template, parameters: parameters)
            }
            atPath.append(index)
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if allowed.isEmpty { return .notFound }
        if allowed.contains("GET") && !allowed.contains("HEAD") { allowed.append("HEAD") }
        return .methodNotAllowed(allow: allowed, routes: atPath)
    }

    /// The body limit that applies to a request, decided before its body is read.
    func bodyLimit(for match: Match, default defaultLimit: Int) -> Int {
        if case .found(let index, _, _) = match, let limit = entries[index].route.bodyLimit { return limit }
        return defaultLimit
    }

    /// What the request's context starts from (`RequestContext.init(request:route:)`), for a
    /// request to `method` and `path` (a target such as `/products/12?x=1`).
    public func lookup(method: String, path: String) -> RouteLookup<Options> {
        guard let target = RequestTarget(path) else { return .notFound }
        return lookup(match(method: method, segments: target.segments))
    }

    private func lookup(_ match: Match, bodyRefused: Bool = false) -> RouteLookup<Options> {
        switch match {
        case .found(let index, _, _): bodyRefused ? .bodyRefused(entries[index].route) : .found(entries[index].route)
        case .methodNotAllowed(_, let indices): .methodNotAllowed(indices.map { entries[$0].route })
        case .notFound: .notFound
        }
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
        let chain: RouteHandler<Context>
        switch match {
        case .found(let index, let template, let parameters):
            request.pathParameters = parameters
            request.routeTemplate = template
            chain = bodyRefused ? refusalChain : entries[index].chained
        case .methodNotAllowed(let allow, _):
            chain = Self.chain(middlewares) { _, _ in
                var response = HTTPResponse.text("Method Not Allowed\n", status: 405)
                response.headers["Allow"] = allow.joined(separator: ", ")
                return response
            }
        case .notFound:
            chain = notFoundChain
        }
        let context = Context(request: request, route: lookup(match, bodyRefused: bodyRefused))
        defer { request.body.removeSpoolFiles() }
        do { return try await chain(request, context) } catch { return Self.errorResponse(error) }
    }

    /// The app's 413 answer, whatever status it chose: the request was not served.
    private static func refusal(_ render: RouteHandler<Context>?) -> RouteHandler<Context> {
        { request, context in
            var response = try await (render ?? { _, _ in .text("Content Too Large\n", status: 413) })(request, context)
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

/// The routes of apps with no route options: handlers that read the request only.
extension Router where Context == BasicRequestContext {
    public init() {
        self.init(context: BasicRequestContext.self)
    }

    public mutating func add(_ method: String, _ pattern: String, bodyLimit: Int? = nil, _ handler: @escaping HTTPHandler) {
        add(method, pattern, bodyLimit: bodyLimit, options: ()) { request, _ in try await handler(request) }
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
}

/// What `Router.match` compares a request with, for one route.
struct RouteMatcher: Sendable {
    let method: String
    let pattern: RoutePattern
}

/// The outcome of looking a request up, before its body is read (an index into `entries`).
enum Match: Sendable {
    case found(index: Int, template: String, parameters: [String: String])
    /// `routes`: every route matching the path, none with the request's method.
    case methodNotAllowed(allow: [String], routes: [Int])
    case notFound
}

/// A router as the server's connections use it, whatever its context.
protocol ServerRouter: Sendable {
    var staticRoutes: [StaticRoute] { get }
    /// Every route template, for the access log's names.
    var templates: [String] { get }
    /// True when the app renders its own 413 (`payloadTooLargeHandler`).
    var rendersRefusals: Bool { get }
    func match(method: String, segments: [String]) -> Match
    func bodyLimit(for match: Match, default defaultLimit: Int) -> Int
    func respond(to request: HTTPRequest, match: Match, bodyRefused: Bool) async -> HTTPResponse
}

extension Router: ServerRouter {
    var templates: [String] { entries.map(\.route.pattern.template) }
    var rendersRefusals: Bool { payloadTooLargeHandler != nil }
}
