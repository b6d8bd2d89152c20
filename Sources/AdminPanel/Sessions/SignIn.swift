import Foundation
import OpenMarketCore
import HTTPServer

/// `/login` and `/logout`: sign-in with its attempt limits, and the session cookie.
struct SessionController: Sendable, PageHandling {
    let pages: Pages
    let configuration: PanelConfiguration
    let sessions: SessionStore
    let people: PeopleStore
    let hasher: PasswordHasher
    let signInGate: AttemptGate
    let activity: ActivityLog

    /// Only local paths may follow a sign-in (no open redirect to another site). Browsers drop
    /// tabs and line breaks from a URL, so `/<TAB>/evil.example` would become `//evil.example`:
    /// no control character is accepted at all.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.hasPrefix("/\\"), next.utf8.count <= 2000,
              !next.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return "/products" }
        return next
    }

    /// `GET /login`
    func loginForm(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard configuration.signIn else { return .redirect(to: "/products", status: 303) }
        let visit = await visit(request)
        if visit.session?.signedIn == true { return .redirect(to: Self.safeNext(request.query["next"]), status: 303) }
        return try await loginPage(visit: visit, name: "", next: Self.safeNext(request.query["next"]), alert: nil, status: 200)
    }

    /// `POST /login` (`name`, `password`, `next`, `csrf_token`). Each try first reserves a slot
    /// under its name and its address (5 and 20 per 15 minutes), so even simultaneous tries
    /// cannot exceed the limits; a right password gives its slot back. An unknown name is
    /// checked against a decoy hash: same work, same time, same message as a wrong password.
    func login(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard configuration.signIn else { return .redirect(to: "/products", status: 303) }
        let form = try await request.urlencodedForm()
        let session = try await requireCSRF(request, formToken: form["csrf_token"])
        let visit = visit(request, session: session)
        let l = visit.localizer
        let next = Self.safeNext(form["next"])
        let name = String((form["name"] ?? "").trimmingCharacters(in: .whitespaces).prefix(64))
        let password = form["password"] ?? ""
        guard !name.isEmpty, !password.isEmpty, password.utf8.count <= PasswordRules.maximumBytes else {
            return try await loginPage(visit: visit, name: name, next: next, alert: l("login_missing"), status: 422)
        }
        let ticket: AttemptGate.Ticket
        switch await signInGate.reserve(name.lowercased(), request.remoteAddress) {
        case .failure(let wait):
            var response = try await loginPage(visit: visit, name: name, next: next,
                                               alert: l("login_too_many", ["wait": l.duration(wait.seconds)]), status: 429)
            response.headers["Retry-After"] = wait.header
            return response
        case .success(let reserved):
            ticket = reserved
        }
        let person = await people.person(named: name)
        let matches = await hasher.verify(password, against: person?.passwordHash)
        guard let person, matches, !person.disabled else {
            // Only a known name is logged (what is typed as a name is sometimes a password).
            await activity.record(ActivityEntry(person: person?.name ?? "", address: request.remoteAddress,
                                                action: "sign-in-failed", detail: person == nil ? ActivityDetail("unknown_name").stored : nil))
            let alert = person?.disabled == true && matches ? l("login_disabled") : l("login_wrong")
            return try await loginPage(visit: visit, name: name, next: next, alert: alert, status: 403)
        }
        await signInGate.release(ticket)
        return try await startSession(for: person, request: request, redirectTo: next, detail: nil)
    }

    /// A new session for `person` (a fresh id: no fixation), its cookie, a `sign-in` row.
    func startSession(for person: Person, request: HTTPRequest, redirectTo location: String, detail: String?) async throws -> HTTPResponse {
        let id = try await sessions.create(person: person.name, address: request.remoteAddress,
                                           browser: request.headers["User-Agent"] ?? "")
        await people.touch(person.name)
        await activity.record(ActivityEntry(person: person.name, address: request.remoteAddress, action: "sign-in", detail: detail))
        var response = HTTPResponse.redirect(to: location, status: 303)
        response.setCookie(SetCookie(name: SessionStore.cookieName, value: id, maxAge: WholeNumber.clamped(sessions.absoluteLimit),
                                     sameSite: .lax))
        return response
    }

    /// `POST /logout`: ends this session (and gives the browser a new form key, so forms of the
    /// signed-in pages stop working).
    func logout(_ request: HTTPRequest) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm()
        let session = try await requireCSRF(request, formToken: form["csrf_token"])
        if let hash = session.sessionHash {
            await sessions.revoke(hash)
            await activity.record(ActivityEntry(session, request, action: "sign-out"))
        }
        var response = HTTPResponse.redirect(to: configuration.signIn ? "/login" : "/products", status: 303)
        response.setCookie(.expired(SessionStore.cookieName))
        response.setCookie(FormTokens.cookie(SecureToken.make()))
        return response
    }

    private func loginPage(visit: Visit, name: String, next: String, alert: String?, status: Int) async throws -> HTTPResponse {
        let l = visit.localizer
        let noOwner = await !people.hasOwner
        let view = LoginPageView(csrfToken: visit.session?.csrfToken ?? "", next: next, name: name, noOwner: noOwner,
                                 alert: alert.map(MessageView.init))
        return try page(view, title: l("login_heading"), visit: visit, status: status)
    }
}
