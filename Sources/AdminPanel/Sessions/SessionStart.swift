import OpenMarketCore
import HTTPServer

/// Signing someone in once they have proven who they are (sign-in, setup, an accepted
/// invitation): shared by `SessionController` and `PeopleController`.
struct SessionStart: Sendable {
    let sessions: SessionStore
    let people: PeopleStore
    let activity: ActivityLog

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
}
