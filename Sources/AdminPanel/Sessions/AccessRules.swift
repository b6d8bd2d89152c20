import Foundation
import HTTPServer

extension PanelApp {
    /// The check every request passes after the host and origin checks, with the access the
    /// router put in its context (the matched route's, or what a path no route answers needs):
    /// it fills the context once (`Visitors.context`) and hands it on. A route anyone may reach
    /// needs no role; one that needs nobody's identity (assets, health) is not looked up at all.
    /// With sign-in on, nobody signed in: pages redirect to the sign-in page (a disabled person
    /// or a revoked session is out at the next request), posts get 403. A role below the
    /// route's: 403 (a viewer writes nothing, only owners manage people).
    func accessMiddleware() -> RouteMiddleware<PanelContext> {
        { [self] request, routed, next in
            guard routed.needsVisitor else { return try await next(request, routed.answered(by: self)) }
            let context = await visitors.context(for: request, access: routed.access).answered(by: self)
            guard case .signedIn(let needed) = context.access else { return try await next(request, context) }
            guard !configuration.signIn || context.signedIn else { return refusal(signInFirst(request, context), routed) }
            guard context.role <= needed else {
                return refusal(pages.errorPage(.forbidden(needed == .owner ? "failure_owner_only" : "failure_viewer_read_only"),
                                               context: context), routed)
            }
            return try await next(request, context)
        }
    }

    /// A refusal of the access check; for a body over the route's limit it says 413, as every
    /// answer to such a request does (`Router.payloadTooLargeHandler`).
    private func refusal(_ response: HTTPResponse, _ routed: PanelContext) -> HTTPResponse {
        guard routed.bodyRefused else { return response }
        var response = response
        response.status = 413
        return response
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
}
