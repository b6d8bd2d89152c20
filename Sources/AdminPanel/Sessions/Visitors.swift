import Foundation
import HTTPServer

/// Fills a request's `PanelContext`: who is asking (sign-in off: the implicit owner `local`;
/// sign-in on: the person of a live session who is still active, else nobody), the browser's
/// form key, the language, and for a GET its one-time message.
struct Visitors: Sendable {
    let signIn: Bool
    let sessions: SessionStore
    let people: PeopleStore
    let stringCatalogs: StringCatalogs
    let formTokens: FormTokens
    let flashCookie: FlashCookie

    /// The request's language (`?lang=`, the `om_lang` cookie, `Accept-Language`, English).
    func localizer(for request: HTTPRequest) -> Localizer {
        let language = Language.choose(query: request.query["lang"], cookie: request.cookies[Language.cookieName],
                                       acceptLanguage: request.headers["Accept-Language"])
        return Localizer(catalog: stringCatalogs[language])
    }

    /// The request's context: one session lookup, one person lookup, one touch.
    func context(for request: HTTPRequest, access: RouteAccess) async -> PanelContext {
        var signedIn = false, person = "local", role = Role.owner
        var sessionHash: String?
        if signIn {
            person = ""
            role = .viewer
            if let record = await sessions.find(cookie: request.cookies[SessionStore.cookieName], address: request.remoteAddress),
               let found = await people.person(named: record.person), found.isActive {
                await people.touch(found.name)
                (signedIn, person, role, sessionHash) = (true, found.name, found.role, record.idHash)
            }
        }
        var context = PanelContext(signedIn: signedIn, person: person, role: role, sessionHash: sessionHash,
                                   localizer: localizer(for: request), access: access,
                                   browserFormKey: FormTokens.browserKey(request), formTokens: formTokens,
                                   languageSwitchTarget: Pages.languageSwitchTarget(request))
        // A page opened by a GET shows the message the last POST left, once.
        if request.method == "GET" || request.method == "HEAD", request.cookies[FlashCookie.cookieName] != nil {
            context.flash = flashCookie.message(request)
            context.cookies.append(.expired(FlashCookie.cookieName))
        }
        return context
    }
}
