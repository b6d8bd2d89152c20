/// What a handler knows about the browser behind a request.
///
/// The current person and role: `session.person` and `session.role` of the snapshot a handler
/// gets from `visit(request)` (GET) or `requireCSRF(request, formToken:)` (POST).
struct SessionSnapshot: Sendable, Equatable {
    /// This browser's form key (the `om_form` cookie): owner of staged uploads, base of the CSRF
    /// token. Not the session id, which never leaves the session store.
    var id: String
    /// The token every form of this browser carries (`csrf_token`).
    var csrfToken: String
    /// A person signed in with a password (sign-in on). False for `local` and for visitors.
    var signedIn: Bool
    /// Who acts: a person's name, `local` (the implicit owner when sign-in is off), or "" (nobody yet).
    var person = "local"
    var role = Role.owner
    /// The stored session's hash, when signed in (to mark "this browser" on /account).
    var sessionHash: String?
}
