import Foundation

/// What a handler needs to know about the browser's session.
///
/// The current person and role: `session.person` and `session.role` (owner/editor/viewer) of the
/// snapshot a handler gets from `visit(request)` or `requireCSRF(request, formToken:)`.
struct SessionSnapshot: Sendable, Equatable {
    var id: String
    var csrfToken: String
    var signedIn: Bool
    /// Who acts: a person's name, or `local` (the implicit owner when sign-in is off).
    var person = "local"
    var role = Role.owner
}

/// Sessions live in memory only: a random id in an HttpOnly, SameSite=Strict cookie points at a
/// CSRF token, a one-time flash message, the sign-in state and the delete-attempt limiter.
/// Idle sessions expire; the number kept is bounded so cookieless floods cannot grow memory.
actor SessionStore {
    static let cookieName = "om_session"

    private struct Session {
        var csrfToken: String
        var signedIn = false
        var flash: String?
        var deleteAttempts: AttemptLimiter
        var lastSeen: Date
    }

    private var sessions: [String: Session] = [:]
    private let idleLifetime: TimeInterval
    private let maxSessions: Int
    private let deleteLimit: Int
    private let deleteWindow: TimeInterval
    private let now: @Sendable () -> Date

    init(idleLifetime: TimeInterval = 12 * 3600, maxSessions: Int = 10_000,
         deleteLimit: Int, deleteWindow: TimeInterval, now: @escaping @Sendable () -> Date) {
        self.idleLifetime = idleLifetime
        self.maxSessions = maxSessions
        self.deleteLimit = deleteLimit
        self.deleteWindow = deleteWindow
        self.now = now
    }

    /// The session for `id` if it is alive; with `create`, a fresh one otherwise.
    /// `takeFlash` removes the flash message so it shows exactly once.
    func visit(id: String?, create: Bool, takeFlash: Bool) -> (session: SessionSnapshot?, flash: String?, created: Bool) {
        let time = now()
        if let id, var session = sessions[id], time.timeIntervalSince(session.lastSeen) < idleLifetime {
            session.lastSeen = time
            let flash = takeFlash ? session.flash : nil
            if takeFlash { session.flash = nil }
            sessions[id] = session
            return (SessionSnapshot(id: id, csrfToken: session.csrfToken, signedIn: session.signedIn), flash, false)
        }
        if let id { sessions[id] = nil }
        guard create else { return (nil, nil, false) }
        return (makeSession(at: time), nil, true)
    }

    func setFlash(_ message: String, for id: String) {
        sessions[id]?.flash = message
    }

    /// Wait time when the session has used up its wrong-password attempts; nil when it may try.
    func deleteRetryAfter(for id: String) -> TimeInterval? {
        sessions[id]?.deleteAttempts.retryAfter(now: now())
    }

    /// Counts one wrong password; answers the attempts left and, when none, the wait time.
    func recordWrongPassword(for id: String) -> (remaining: Int, retryAfter: TimeInterval?) {
        let time = now()
        guard var session = sessions[id] else { return (0, deleteWindow) }
        session.deleteAttempts.recordFailure(now: time)
        sessions[id] = session
        return (session.deleteAttempts.remaining(now: time), session.deleteAttempts.retryAfter(now: time))
    }

    /// Signing in replaces the session id (no session fixation) and keeps nothing else.
    func signIn(replacing id: String) -> SessionSnapshot {
        sessions[id] = nil
        var snapshot = makeSession(at: now())
        sessions[snapshot.id]?.signedIn = true
        snapshot.signedIn = true
        return snapshot
    }

    func signOut(_ id: String) {
        sessions[id] = nil
    }

    var count: Int { sessions.count }

    private func makeSession(at time: Date) -> SessionSnapshot {
        if sessions.count >= maxSessions { evict(at: time) }
        let id = SecureToken.make()
        let token = SecureToken.make()
        sessions[id] = Session(csrfToken: token,
                               deleteAttempts: AttemptLimiter(limit: deleteLimit, window: deleteWindow),
                               lastSeen: time)
        return SessionSnapshot(id: id, csrfToken: token, signedIn: false)
    }

    /// Drops expired sessions, then (if still full) the least recently seen tenth.
    private func evict(at time: Date) {
        sessions = sessions.filter { time.timeIntervalSince($0.value.lastSeen) < idleLifetime }
        guard sessions.count >= maxSessions else { return }
        let oldest = sessions.sorted { $0.value.lastSeen < $1.value.lastSeen }
            .prefix(max(1, maxSessions / 10)).map(\.key)
        for id in oldest { sessions[id] = nil }
    }
}
