import Foundation
import HTTPServer

extension PanelApp {
    /// The check every request to a guarded route passes after the host and origin checks, with
    /// the access its route declares (`PanelApp.routeTable`): it fills the request's context once
    /// (`Visitors.context`) and hands it to `handler`. A route anyone may reach needs no role.
    /// With sign-in on, nobody signed in: pages redirect to the sign-in page (a disabled person or
    /// a revoked session is out at the next request), posts get 403. A role below the route's:
    /// 403 (a viewer writes nothing, only owners manage people).
    func guarded(_ request: HTTPRequest, access: RouteAccess,
                 _ handler: (HTTPRequest, PanelContext) async throws -> HTTPResponse) async throws -> HTTPResponse {
        let context = await visitors.context(for: request, access: access)
        guard case .signedIn(let needed) = access else { return try await handler(request, context) }
        guard !configuration.signIn || context.signedIn else { return signInFirst(request, context) }
        guard context.role <= needed else {
            return pages.errorPage(.forbidden(needed == .owner ? "failure_owner_only" : "failure_viewer_read_only"), context: context)
        }
        return try await handler(request, context)
    }

    /// The guard of requests no route answers (404, 405): they need what the routes beside them
    /// need (`RouteTable.access(method:path:)`), and a 404 is the not-found page.
    func unroutedMiddleware(_ table: RouteTable) -> Middleware {
        { [self] request, next in
            guard request.routeTemplate == nil else { return try await next(request) }
            let segments = request.pathSegments
            let access = table.access(method: request.method, segments: segments)
            guard access != .anyone else { return try await next(request) }
            return try await guarded(request, access: access) { request, context in
                table.hasRoutes(at: segments) ? try await next(request) : pages.errorPage(.notFound(), context: context)
            }
        }
    }

    /// The access a request needs: its matched route's, else what `RouteTable.access` says.
    func access(of request: HTTPRequest) -> RouteAccess {
        let method = request.method == "HEAD" ? "GET" : request.method
        return request.routeTemplate.flatMap { Self.accessByRoute[method + " " + $0] }
            ?? Self.routeTable.access(method: request.method, segments: request.pathSegments)
    }

    private func signInFirst(_ request: HTTPRequest, _ context: PanelContext) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return pages.errorPage(.forbidden("failure_sign_in_first"), context: context)
        }
        let next = SessionController.safeNext(request.target)
        var response = HTTPResponse.redirect(to: "/login" + (next == "/products" ? "" : "?next=" + ListLinks.encode(next)),
                                             status: 303)
        if request.cookies[SessionStore.cookieName] != nil { response.setCookie(.expired(SessionStore.cookieName)) }
        return response
    }

    /// The least role a request needs (owner < editor < viewer), as the route table declares it;
    /// `.viewer` for a route anyone may reach.
    static func roleNeeded(method: String, path: String) -> Role {
        if case .signedIn(let role) = routeTable.access(method: method, path: path) { return role }
        return .viewer
    }
}
