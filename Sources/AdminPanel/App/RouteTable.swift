import Foundation
import HTTPServer

/// Who may reach a route: anyone (sign-in, setup and invitation links, assets, health), or a
/// signed-in, active person with at least this role (owner < editor < viewer).
enum RouteAccess: Sendable, Equatable, CustomStringConvertible {
    case anyone
    case signedIn(Role)

    static let viewer = RouteAccess.signedIn(.viewer)
    static let editor = RouteAccess.signedIn(.editor)
    static let owner = RouteAccess.signedIn(.owner)

    /// The stricter of two accesses (a signed-in role is stricter than anyone; owner than editor).
    func stricter(_ other: RouteAccess) -> RouteAccess {
        switch (self, other) {
        case (.anyone, _): other
        case (_, .anyone): self
        case (.signedIn(let a), .signedIn(let b)): .signedIn(a <= b ? a : b)
        }
    }

    var description: String {
        switch self {
        case .anyone: "anyone"
        case .signedIn(let role): role.rawValue
        }
    }
}

/// The largest body a route accepts, some of them known only from the configuration.
enum RouteBodyLimit: Sendable {
    /// The server's default (GET routes).
    case serverDefault
    case bytes(Int)
    /// The register form's upload limit (`--upload-limit`).
    case upload
    /// The CSV import: the file's 5 MiB plus the photos within the upload limit.
    case importUpload
    /// The edit form: v1 edits may replace the images (the upload limit then), else 64 KiB.
    case productEdit

    func bytes(_ configuration: PanelConfiguration) -> Int? {
        switch self {
        case .serverDefault: nil
        case .bytes(let count): count
        case .upload: configuration.uploadLimit
        case .importUpload: ImportService.maxFileBytes + configuration.uploadLimit
        case .productEdit: configuration.api.dialect == .v1 ? configuration.uploadLimit : 64 * 1024
        }
    }
}

/// Every route of the panel with the access it needs, each registered by its controller
/// (`register(on:)`, gathered in `PanelApp.routeTable`). The access check (`PanelApp.guarded`)
/// gets the matched route's access; nothing is decided from path prefixes.
struct RouteTable: Sendable {
    /// A handler of a guarded route: it gets the request's context (`PanelApp.guarded`).
    typealias Handler = @Sendable (PanelApp, HTTPRequest, PanelContext) async throws -> HTTPResponse
    /// A handler of a route anyone may reach that needs nobody's identity (health, assets).
    typealias OpenHandler = @Sendable (PanelApp, HTTPRequest) async throws -> HTTPResponse

    enum Kind: Sendable {
        /// Failures become error pages (`Pages.respond`).
        case page(Handler)
        /// Answers by itself (JSON, media, events, redirects).
        case plain(Handler)
        /// No context is filled: no session lookup for assets or health.
        case open(OpenHandler)
    }

    struct Route: Sendable {
        let method: String
        let pattern: String
        let access: RouteAccess
        let bodyLimit: RouteBodyLimit
        let kind: Kind
        /// The router's matcher, to answer `access(method:path:)` for a request it did not route.
        let matcher: RoutePattern
    }

    private(set) var routes: [Route] = []

    /// A handler of a controller (`CatalogController.register(on:)`): the controller the panel
    /// built (`controller`, a property of `PanelApp`), the request and its context.
    typealias ControllerHandler<Controller> = @Sendable (Controller, HTTPRequest, PanelContext) async throws -> HTTPResponse

    mutating func get(_ pattern: String, _ access: RouteAccess, plain handler: @escaping Handler) {
        add("GET", pattern, access, .serverDefault, .plain(handler))
    }

    mutating func get<Controller>(_ pattern: String, _ access: RouteAccess, page controller: KeyPath<PanelApp, Controller> & Sendable,
                                  _ handler: @escaping ControllerHandler<Controller>) {
        add("GET", pattern, access, .serverDefault, .page { app, request, context in try await handler(app[keyPath: controller], request, context) })
    }

    mutating func get<Controller>(_ pattern: String, _ access: RouteAccess, plain controller: KeyPath<PanelApp, Controller> & Sendable,
                                  _ handler: @escaping ControllerHandler<Controller>) {
        add("GET", pattern, access, .serverDefault, .plain { app, request, context in try await handler(app[keyPath: controller], request, context) })
    }

    mutating func get<Controller>(_ pattern: String, open controller: KeyPath<PanelApp, Controller> & Sendable,
                                  _ handler: @escaping @Sendable (Controller, HTTPRequest) async throws -> HTTPResponse) {
        add("GET", pattern, .anyone, .serverDefault, .open { app, request in try await handler(app[keyPath: controller], request) })
    }

    mutating func post<Controller>(_ pattern: String, _ access: RouteAccess, bodyLimit: RouteBodyLimit,
                                   page controller: KeyPath<PanelApp, Controller> & Sendable, _ handler: @escaping ControllerHandler<Controller>) {
        add("POST", pattern, access, bodyLimit, .page { app, request, context in try await handler(app[keyPath: controller], request, context) })
    }

    private mutating func add(_ method: String, _ pattern: String, _ access: RouteAccess, _ bodyLimit: RouteBodyLimit,
                              _ kind: Kind) {
        precondition(!routes.contains { $0.method == method && $0.pattern == pattern }, "route declared twice: \(method) \(pattern)")
        routes.append(Route(method: method, pattern: pattern, access: access, bodyLimit: bodyLimit, kind: kind,
                            matcher: RoutePattern(pattern)))
    }

    /// The access of the route the router matched (`HTTPRequest.routeTemplate`), keyed for a
    /// lookup per request. HEAD is answered by the GET route.
    func accessByRoute() -> [String: RouteAccess] {
        Dictionary(routes.map { ($0.method + " " + $0.pattern, $0.access) }, uniquingKeysWith: { $0.stricter($1) })
    }

    /// The access a request needs. A request the router matched needs its route's; one to a
    /// known path with another method (405) the strictest of that path's routes, so the answer
    /// reveals no more than the routes themselves would; one to no route at all (404) a
    /// signed-in person, and an editor to send anything but GET/HEAD. `segments`: the request's
    /// `pathSegments`, matched as the router matches them.
    func access(method: String, segments: [String]) -> RouteAccess {
        let method = method == "HEAD" ? "GET" : method
        let atPath = routes.filter { $0.matcher.match(segments) != nil }
        // Like the router: of several patterns for one path (`/products/new`, `/products/{id}`)
        // the most literal one answers.
        if let route = atPath.filter({ $0.method == method }).max(by: { $1.matcher.isMoreSpecific(than: $0.matcher) }) {
            return route.access
        }
        if let first = atPath.first { return atPath.dropFirst().reduce(first.access) { $0.stricter($1.access) } }
        return method == "GET" ? .viewer : .editor
    }

    /// The access a request to `path` needs (`access(method:segments:)`).
    func access(method: String, path: String) -> RouteAccess {
        access(method: method, segments: (try? HTTPRequest(target: path))?.pathSegments ?? [])
    }

    /// True when some route answers these segments, whatever its method (a 405 rather than a 404).
    func hasRoutes(at segments: [String]) -> Bool {
        routes.contains { $0.matcher.match(segments) != nil }
    }
}
