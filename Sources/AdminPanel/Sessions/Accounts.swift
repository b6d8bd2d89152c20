import OpenMarketCore
import HTTPServer

/// The panel's accounts: the people who may sign in, their sessions, and the activity rows
/// their sign-ins and changes leave; and starting a session once someone has proven who they
/// are (sign-in, setup, an accepted invitation). `SessionController`, `PeopleController` and
/// `AccountController` hold it. A new session is answered as its cookie, which the controller
/// sends with its redirect.
struct Accounts: Sendable {
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
