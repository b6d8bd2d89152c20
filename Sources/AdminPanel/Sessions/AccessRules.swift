import Foundation
import HTTPServer

extension PanelApp {
    /// Who a request comes from. Sign-in off: the implicit owner `local`. Sign-in on: the person
    /// of a live session who is still active (not disabled, password set), else nobody.
    struct Identity: Sendable {
        var signedIn: Bool
        var person: String
        var role: Role
        var sessionHash: String?

        static let local = Identity(signedIn: false, person: "local", role: .owner)
        static let nobody = Identity(signedIn: false, person: "", role: .viewer)
    }

    /// The identity of the request's context (resolved once per request, `RequestContext`).
    func identify(_ request: HTTPRequest) async -> Identity {
        if let current = RequestContext.current { return current.identity }
        return await resolveIdentity(request)
    }

    /// Asks the stores: the session of the cookie, its person, and marks the person as seen.
    func resolveIdentity(_ request: HTTPRequest) async -> Identity {
        guard configuration.signIn else { return .local }
        guard let record = await sessions.find(cookie: request.cookies[SessionStore.cookieName], address: request.remoteAddress),
              let person = await people.person(named: record.person), person.isActive else { return .nobody }
        await people.touch(person.name)
        return Identity(signedIn: true, person: person.name, role: person.role, sessionHash: record.idHash)
    }

    /// Paths anyone may reach: sign-in, the setup and invitation links, assets, health.
    static func isPublic(_ path: String) -> Bool {
        path == "/login" || path == "/healthz" || path.hasPrefix("/static/") || path.hasPrefix("/setup/")
            || path.hasPrefix("/invite/")
    }

    /// With sign-in on, everything else needs a signed-in, active person: pages redirect to the
    /// sign-in page (a disabled person or a revoked session is out at the next request), posts get 403.
    func accessControlMiddleware() -> Middleware {
        { [self] request, next in
            guard !Self.isPublic(request.path) else { return try await next(request) }
            let requestContext = await context(for: request)
            if !configuration.signIn || requestContext.identity.signedIn {
                return try await RequestContext.$current.withValue(requestContext) { try await next(request) }
            }
            if request.method == "GET" || request.method == "HEAD" {
                let next = Self.safeNext(request.target)
                var response = HTTPResponse.redirect(to: "/login" + (next == "/products" ? "" : "?next=" + ListLinks.encode(next)),
                                                     status: 303)
                if request.cookies[SessionStore.cookieName] != nil { response.setCookie(.expired(SessionStore.cookieName)) }
                return response
            }
            return await errorPage(.forbidden("failure_sign_in_first"), request: request)
        }
    }

    /// Roles: a viewer reaches no write page or write action (403), only owners reach `/people`.
    func roleMiddleware() -> Middleware {
        { [self] request, next in
            guard !Self.isPublic(request.path) else { return try await next(request) }
            let needed = Self.roleNeeded(method: request.method, path: request.path)
            guard needed != .viewer else { return try await next(request) }
            let role = await identify(request).role
            guard role <= needed else {
                return await errorPage(.forbidden(needed == .owner ? "failure_owner_only" : "failure_viewer_read_only"),
                                       request: request)
            }
            return try await next(request)
        }
    }

    /// The least role a route needs (owner < editor < viewer). Everyone may sign out and manage
    /// their own account; product pages that write need an editor; people need an owner.
    static func roleNeeded(method: String, path: String) -> Role {
        if path == "/people" || path.hasPrefix("/people/") { return .owner }
        if path == "/logout" || path == "/account" || path.hasPrefix("/account/") { return .viewer }
        if method != "GET" && method != "HEAD" { return .editor }
        if path == "/products/import" || path.hasPrefix("/products/import/") { return .editor }
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        if path.hasPrefix("/products/"), ["new", "edit", "delete", "duplicate"].contains(last) { return .editor }
        return .viewer
    }

    /// Only local paths may follow a sign-in (no open redirect to another site). Browsers drop
    /// tabs and line breaks from a URL, so `/<TAB>/evil.example` would become `//evil.example`:
    /// no control character is accepted at all.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.hasPrefix("/\\"), next.utf8.count <= 2000,
              !next.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return "/products" }
        return next
    }
}
