/// One route as declared: what the router matches, the body it accepts, and the app's options.
public struct Route<Options: Sendable>: Sendable {
    public let method: String
    public let pattern: RoutePattern
    /// The largest body accepted, nil for the server's default; applied before the body is read.
    public internal(set) var bodyLimit: Int?
    public let options: Options
}

/// What the router found for a request, as its context starts from.
public enum RouteLookup<Options: Sendable>: Sendable {
    /// The route answering.
    case found(Route<Options>)
    /// The route matched, its body is over the route's limit: the request gets the 413 answer
    /// (`Router.payloadTooLargeHandler`).
    case bodyRefused(Route<Options>)
    /// Routes match the path, none with this method (405): these are they.
    case methodNotAllowed([Route<Options>])
    /// No route matches the path (404).
    case notFound
}
