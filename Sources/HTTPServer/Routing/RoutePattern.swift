/// A route pattern such as `/products/{id}` or `/static/{path...}`, split into segments: the one
/// matcher of routes, the router's and an app's own questions about its routes alike.
public struct RoutePattern: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        /// `{name...}`: the rest of the path, zero or more segments, joined with `/`.
        case rest(String)
    }

    public let template: String
    let segments: [Segment]

    public init(_ template: String) {
        precondition(template.hasPrefix("/"), "route patterns start with /: \(template)")
        self.template = template
        var segments: [Segment] = []
        let parts = template.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (i, part) in parts.enumerated() where !(parts.count == 1 && part.isEmpty) {
            if part.hasPrefix("{") && part.hasSuffix("...}") {
                precondition(i == parts.count - 1, "{name...} must be the last segment: \(template)")
                segments.append(.rest(String(part.dropFirst().dropLast(4))))
            } else if part.hasPrefix("{") && part.hasSuffix("}") {
                segments.append(.parameter(String(part.dropFirst().dropLast())))
            } else {
                segments.append(.literal(String(part)))
            }
        }
        self.segments = segments
    }

    /// The parameters when `path` (a request's `pathSegments`) matches, else nil.
    public func match(_ path: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        var i = 0
        for segment in segments {
            switch segment {
            case .literal(let s):
                guard i < path.count, path[i] == s else { return nil }
            case .parameter(let name):
                guard i < path.count, !path[i].isEmpty else { return nil }
                parameters[name] = path[i]
            case .rest(let name):
                parameters[name] = path[i...].joined(separator: "/")
                return parameters
            }
            i += 1
        }
        return i == path.count ? parameters : nil
    }

    /// Orders overlapping routes: at the first differing segment a literal beats a parameter,
    /// which beats a rest. So `/products/new` wins over `/products/{id}` whatever the order added.
    public func isMoreSpecific(than other: RoutePattern) -> Bool {
        for (a, b) in zip(segments, other.segments) {
            let ra = Self.rank(a), rb = Self.rank(b)
            if ra != rb { return ra > rb }
        }
        return segments.count > other.segments.count
    }

    private static func rank(_ s: Segment) -> Int {
        switch s {
        case .literal: 2
        case .parameter: 1
        case .rest: 0
        }
    }
}
