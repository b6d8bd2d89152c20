import Foundation
import HTTPServer

/// Who a request comes from and in which language it is answered, resolved once per request.
///
/// `accessMiddleware` resolves it (one session lookup, one person lookup, one touch) and
/// every later reader — the role check, `visit(...)`, the CSRF check, an error page — takes it
/// from here instead of asking the stores again (a signed-in list page used to resolve its
/// identity three times).
///
/// Why a task-local and not a field of the request or a handler parameter: the middleware chain
/// and `HTTPRequest` belong to `HTTPServer`, which knows nothing of the panel's people, and every
/// handler already reads who is asking through `visit(...)`. The chain calls the handler in the
/// same task, so a value bound around `next(request)` is what the handler sees, and it ends with
/// the request. A request outside the middleware (a unit test calling a handler directly, a
/// public page such as `/login`) has no context and resolves its identity itself, as before.
struct RequestContext: Sendable {
    let identity: Identity
    var role: Role { identity.role }
    /// The browser's form key (the `om_form` cookie), from which its CSRF token is derived.
    let formKey: String?
    let localizer: Localizer
    var language: Language { localizer.language }

    @TaskLocal static var current: RequestContext?
}
