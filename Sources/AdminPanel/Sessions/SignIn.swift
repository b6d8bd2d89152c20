import Foundation
import OpenMarketCore
import HTTPServer

/// `/login` and `/logout`: sign-in with its attempt limits, and the session cookie.
struct SessionController: Sendable {
    let pages: Pages
    let accounts: Accounts
    let hasher: PasswordHasher
    let signInGate: AttemptGate

    /// Only local paths may follow a sign-in (no open redirect to another site). Browsers drop
    /// tabs and line breaks from a URL, so `/<TAB>/evil.example` would become `//evil.example`:
    /// no control character is accepted at all.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.hasPrefix("/\\"), next.utf8.count <= 2000,
              !next.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return "/products" }
        return next
    }

    /// `GET /login`
    func loginForm(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        guard pages.configuration.signIn else { return .redirect(to: "/products", status: 303) }
        let context = context.withFormKey()
        if context.signedIn { return .redirect(to: Self.safeNext(request.query["next"]), status: 303) }
        return try await loginPage(context: context, name: "", next: Self.safeNext(request.query["next"]), alert: nil, status: 200)
    }

    /// `POST /login` (`name`, `password`, `next`, `csrf_token`). Each try first reserves a slot
    /// under its name and its address (5 and 20 per 15 minutes), so even simultaneous tries
    /// cannot exceed the limits; a right password gives its slot back. An unknown name is
    /// checked against a decoy hash: same work, same time, same message as a wrong password.
    func login(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        guard pages.configuration.signIn else { return .redirect(to: "/products", status: 303) }
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let l = context.localizer
        let next = Self.safeNext(form["next"])
        let name = String((form["name"] ?? "").trimmingCharacters(in: .whitespaces).prefix(64))
        let password = form["password"] ?? ""
        guard !name.isEmpty, !password.isEmpty, password.utf8.count <= PasswordRules.maximumBytes else {
            return try await loginPage(context: context, name: name, next: next, alert: l("login_missing"), status: 422)
        }
        let ticket: AttemptGate.Ticket
        switch await signInGate.reserve(name.lowercased(), request.remoteAddress) {
        case .failure(let wait):
            var response = try await loginPage(context: context, name: name, next: next,
                                               alert: l("login_too_many", ["wait": l.duration(wait.seconds)]), status: 429)
            response.headers["Retry-After"] = wait.header
            return response
        case .success(let reserved):
            ticket = reserved
        }
        let person = await accounts.people.person(named: name)
        let matches = await hasher.verify(password, against: person?.passwordHash)
        guard let person, matches, !person.disabled else {
            // Only a known name is logged (what is typed as a name is sometimes a password).
            await accounts.activity.record(ActivityEntry(person: person?.name ?? "", address: request.remoteAddress,
                                                action: "sign-in-failed", detail: person == nil ? ActivityDetail("unknown_name").stored : nil))
            let alert = person?.disabled == true && matches ? l("login_disabled") : l("login_wrong")
            return try await loginPage(context: context, name: name, next: next, alert: alert, status: 403)
        }
        await signInGate.release(ticket)
        let cookie = try await accounts.startSession(for: person, request: request, detail: nil)
        return Self.signedIn(cookie, redirectTo: next)
    }

    /// The answer once someone is signed in (here, at setup, or by an accepted invitation): on
    /// to `location`, with the new session's cookie.
    static func signedIn(_ cookie: SetCookie, redirectTo location: String) -> HTTPResponse {
        var response = HTTPResponse.redirect(to: location, status: 303)
        response.setCookie(cookie)
        return response
    }

    /// `POST /logout`: ends this session (and gives the browser a new form key, so forms of the
    /// signed-in pages stop working).
    func logout(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        if let hash = context.sessionHash {
            await accounts.sessions.revoke(hash)
            await accounts.activity.record(ActivityEntry(context, request, action: "sign-out"))
        }
        var response = HTTPResponse.redirect(to: pages.configuration.signIn ? "/login" : "/products", status: 303)
        response.setCookie(.expired(SessionStore.cookieName))
        response.setCookie(FormTokens.cookie(SecureToken.make()))
        return response
    }

    private func loginPage(context: PanelContext, name: String, next: String, alert: String?, status: Int) async throws -> HTTPResponse {
        let l = context.localizer
        let noOwner = await !accounts.people.hasOwner
        let view = LoginPageView(csrfToken: context.csrfToken, next: next, name: name, noOwner: noOwner,
                                 alert: alert.map(MessageView.init))
        return try pages.page(view, title: l("login_heading"), context: context, status: status)
    }

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/login", .anyone, page: \.controllers.sessionController) { try await $0.loginForm($1, $2) }
        routes.post("/login", .anyone, bodyLimit: .bytes(16 * 1024), page: \.controllers.sessionController) { try await $0.login($1, $2) }
        routes.post("/logout", .viewer, bodyLimit: .bytes(16 * 1024), page: \.controllers.sessionController) { try await $0.logout($1, $2) }
    }
}
