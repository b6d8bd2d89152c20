import Foundation
import HTTPServer

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

/// Resolves who is asking and in which language: the session store, the people and the UI
/// strings. `accessMiddleware` binds the result once per request (`RequestContext`); every
/// later reader takes it from there.
struct Visitors: Sendable {
    let signIn: Bool
    let sessions: SessionStore
    let people: PeopleStore
    let stringCatalogs: StringCatalogs

    /// The request's language (`?lang=`, the `om_lang` cookie, `Accept-Language`, English).
    func localizer(for request: HTTPRequest) -> Localizer {
        if let current = RequestContext.current { return current.localizer }
        let language = Language.choose(query: request.query["lang"], cookie: request.cookies[Language.cookieName],
                                       acceptLanguage: request.headers["Accept-Language"])
        return Localizer(catalog: stringCatalogs[language])
    }

    /// The identity of the request's context (resolved once per request, `RequestContext`).
    func identify(_ request: HTTPRequest) async -> Identity {
        if let current = RequestContext.current { return current.identity }
        return await resolveIdentity(request)
    }

    /// Asks the stores: the session of the cookie, its person, and marks the person as seen.
    func resolveIdentity(_ request: HTTPRequest) async -> Identity {
        guard signIn else { return .local }
        guard let record = await sessions.find(cookie: request.cookies[SessionStore.cookieName], address: request.remoteAddress),
              let person = await people.person(named: record.person), person.isActive else { return .nobody }
        await people.touch(person.name)
        return Identity(signedIn: true, person: person.name, role: person.role, sessionHash: record.idHash)
    }

    /// The request's context: the one bound by the middleware, or a fresh one.
    func context(for request: HTTPRequest) async -> RequestContext {
        if let current = RequestContext.current { return current }
        return RequestContext(identity: await resolveIdentity(request), formKey: FormTokens.browserKey(request),
                              localizer: localizer(for: request))
    }
}
