import OpenMarketCore
import HTTPServer

/// Signing someone in once they have proven who they are (sign-in, setup, an accepted
/// invitation), with the stores that takes: shared by `SessionController`, `PeopleController`
/// and `AccountController`, which read and change these stores too. It answers the session's
/// cookie; the controller sends it with its redirect.
struct SessionStart: Sendable {
    let sessions: SessionStore
    let people: PeopleStore
    let activity: ActivityLog

    /// A new session for `person` (a fresh id: no fixation), a `sign-in` row, and the cookie that
    /// carries the session.
    func startSession(for person: Person, request: HTTPRequest, detail: String?) async throws -> SetCookie {
        let id = try await sessions.create(person: person.name, address: request.remoteAddress,
                                           browser: request.headers["User-Agent"] ?? "")
        await people.touch(person.name)
        await activity.record(ActivityEntry(person: person.name, address: request.remoteAddress, action: "sign-in", detail: detail))
        return SetCookie(name: SessionStore.cookieName, value: id, maxAge: WholeNumber.clamped(sessions.absoluteLimit),
                         sameSite: .lax)
    }
}
