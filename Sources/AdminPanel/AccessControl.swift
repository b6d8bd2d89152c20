import Foundation
import HTMLTemplates
import HTTPServer

extension PanelApp {
    /// Paths reachable without signing in: the login page itself, the assets it needs, health.
    static func isPublic(_ path: String) -> Bool {
        path == "/login" || path == "/healthz" || path.hasPrefix("/static/")
    }

    /// When access control is on, everything else needs a signed-in session.
    func accessControlMiddleware() -> Middleware {
        { [self] request, next in
            guard accessControl, !Self.isPublic(request.path) else { return try await next(request) }
            let visit = await visit(request, create: false, takeFlash: false)
            if visit.session?.signedIn == true { return try await next(request) }
            if request.method == "GET" || request.method == "HEAD" {
                let next = request.path.hasPrefix("/") && !request.path.hasPrefix("//") ? request.path : "/products"
                return .redirect(to: "/login?next=" + ListLinks.encode(next), status: 303)
            }
            return await errorPage(.forbidden("failure_sign_in_first"), request: request)
        }
    }

    /// `GET /login`
    func loginForm(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard accessControl else { return .redirect(to: "/products", status: 303) }
        let visit = await visit(request, create: true)
        return try loginPage(visit: visit, next: Self.safeNext(request.query["next"]), alert: nil, status: 200)
    }

    /// `POST /login` with `access_code`: compares in constant time, limits wrong codes per address,
    /// and replaces the session id on success.
    func login(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let accessCode = configuration.accessCode else { return .redirect(to: "/products", status: 303) }
        let form = try await request.urlencodedForm()
        let session = try await requireCSRF(request, formToken: form["csrf_token"])
        let next = Self.safeNext(form["next"])
        let visit = visit(request, session: session)
        let l = visit.localizer
        if let wait = await loginAttempts.retryAfter(request.remoteAddress) {
            return try loginPage(visit: visit, next: next,
                                 alert: l("login_too_many", ["wait": l.duration(wait)]), status: 429)
        }
        let typed = (form["access_code"] ?? "").trimmingCharacters(in: .whitespaces)
        guard Secrets.equal(typed.lowercased(), accessCode.lowercased()) else {
            await loginAttempts.recordFailure(request.remoteAddress)
            return try loginPage(visit: visit, next: next, alert: l("login_wrong_code"), status: 403)
        }
        let signedIn = await sessions.signIn(replacing: session.id)
        var response = HTTPResponse.redirect(to: next, status: 303)
        response.setCookie(SetCookie(name: SessionStore.cookieName, value: signedIn.id))
        return response
    }

    /// `POST /logout`
    func logout(_ request: HTTPRequest) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm()
        let session = try await requireCSRF(request, formToken: form["csrf_token"])
        await sessions.signOut(session.id)
        var response = HTTPResponse.redirect(to: accessControl ? "/login" : "/products", status: 303)
        response.setCookie(.expired(SessionStore.cookieName))
        return response
    }

    /// Only local paths may follow a sign-in (no open redirect to another site). Browsers drop
    /// tabs and line breaks from a URL, so `/<TAB>/evil.example` would become `//evil.example`:
    /// no control character is accepted at all.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.hasPrefix("/\\"),
              !next.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return "/products" }
        return next
    }

    private func loginPage(visit: Visit, next: String, alert: String?, status: Int) throws -> HTTPResponse {
        let context: [String: TemplateValue] = [
            "csrf_token": .string(visit.session?.csrfToken ?? ""),
            "next": .string(next),
            "alert": alert.map { .object(["message": .string($0)]) } ?? .null,
            "code_error": alert.map { .object(["message": .string($0)]) } ?? .null,
        ]
        return try page("login", title: visit.localizer("login_heading"), context: context, visit: visit, status: status)
    }
}
