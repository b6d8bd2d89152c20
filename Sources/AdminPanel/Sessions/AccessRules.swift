import Foundation
import HTTPServer

extension PanelApp {
    /// The guard every request passes after the host and origin checks: the access its route
    /// declares (`PanelApp.routeTable`). A route anyone may reach passes untouched (no session
    /// lookup for assets or health). Otherwise the request's context is resolved once and bound
    /// for everything after (`RequestContext`). With sign-in on, nobody signed in: pages redirect
    /// to the sign-in page (a disabled person or a revoked session is out at the next request),
    /// posts get 403. A role below the route's: 403 (a viewer writes nothing, only owners manage people).
    func accessMiddleware(_ table: RouteTable) -> Middleware {
        let byRoute = table.accessByRoute()
        return { [self] request, next in
            let method = request.method == "HEAD" ? "GET" : request.method
            let access = request.routeTemplate.flatMap { byRoute[method + " " + $0] }
                ?? table.access(method: request.method, path: request.path)
            guard case .signedIn(let needed) = access else { return try await next(request) }
            let requestContext = await visitors.context(for: request)
            return try await RequestContext.$current.withValue(requestContext) {
                guard !configuration.signIn || requestContext.identity.signedIn else { return await signInFirst(request) }
                guard requestContext.role <= needed else {
                    return await pages.errorPage(.forbidden(needed == .owner ? "failure_owner_only" : "failure_viewer_read_only"),
                                           request: request)
                }
                return try await next(request)
            }
        }
    }

    private func signInFirst(_ request: HTTPRequest) async -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return await pages.errorPage(.forbidden("failure_sign_in_first"), request: request)
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
