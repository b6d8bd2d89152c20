/// What a handler gets beside the request, typed by the app (as Hummingbird's `RequestContext`).
/// The router makes one for each request from what it matched, and hands it through the
/// middlewares — each may pass a changed one on — to the handler.
public protocol RequestContext: Sendable {
    /// What the app declares on each route besides method, pattern and body limit (who may
    /// reach it, how its failures are answered …).
    associatedtype RouteOptions: Sendable
    /// The context a request starts with. `request` has its path parameters filled.
    init(request: HTTPRequest, route: RouteLookup<RouteOptions>)
}

/// The context of an app with no options on its routes: handlers read the request only.
public struct BasicRequestContext: RequestContext {
    public init(request: HTTPRequest, route: RouteLookup<Void>) {}
}
