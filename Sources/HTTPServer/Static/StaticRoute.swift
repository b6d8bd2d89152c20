import Foundation

/// Static files answered synchronously on the connection's event loop: no Task, no middleware
/// closures, a response head precomputed per file (see `StaticHeadCache`).
///
/// The fast path only takes the plain case — GET or HEAD, no body, a path of unreserved
/// characters, a file that exists, a Host `admitsHost` accepts. Everything else (a percent
/// escape, a missing file, another method, a refused Host) goes through the ordinary route
/// registered alongside, with the middlewares, so every unusual answer stays what it was.
struct StaticRoute: Sendable {
    /// `/static/`: the route's template without `{path...}`, as bytes to compare with targets.
    let prefix: [UInt8]
    /// For the access log, like the ordinary route's.
    let template: String
    let files: StaticFiles
    let admitsHost: @Sendable (String?) -> Bool
    let decorate: @Sendable (inout HTTPResponse) -> Void
}

extension Router {
    /// Serves `files` under `prefix` (`/static/`) for GET and HEAD.
    ///
    /// - `admitsHost`: the one check a request must pass to be answered synchronously (a Host
    ///   allow-list; nil when the request has no Host); a request it refuses goes through the
    ///   middlewares like any other. It must give the same answer for the same Host: each
    ///   connection remembers the last Host it admitted.
    /// - `decorate`: what the middlewares add to a static answer (security headers), applied
    ///   once per file version to the precomputed 200 and 304 heads. It must do exactly what the
    ///   middlewares do to such a response, so both paths send the same bytes.
    /// - `options`: the ordinary route's.
    public mutating func staticFiles(prefix: String, files: StaticFiles, options: Options,
                                     admitsHost: @escaping @Sendable (String?) -> Bool = { _ in true },
                                     decorate: @escaping @Sendable (inout HTTPResponse) -> Void = { _ in }) {
        precondition(prefix.hasPrefix("/") && prefix.hasSuffix("/"), "a static prefix is /name/: \(prefix)")
        let template = prefix + "{path...}"
        add("GET", template, options: options) { request, _ in
            files.response(for: request.pathParameters["path"] ?? "", request: request)
        }
        staticRoutes.append(StaticRoute(prefix: Array(prefix.utf8), template: template, files: files,
                                        admitsHost: admitsHost, decorate: decorate))
    }
}

extension Router where Context == BasicRequestContext {
    /// `staticFiles(prefix:files:options:admitsHost:decorate:)` for a router without route options.
    public mutating func staticFiles(prefix: String, files: StaticFiles,
                                     admitsHost: @escaping @Sendable (String?) -> Bool = { _ in true },
                                     decorate: @escaping @Sendable (inout HTTPResponse) -> Void = { _ in }) {
        staticFiles(prefix: prefix, files: files, options: (), admitsHost: admitsHost, decorate: decorate)
    }
}
