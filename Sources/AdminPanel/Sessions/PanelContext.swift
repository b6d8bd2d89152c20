import Foundation
import HTTPServer

/// What a handler knows about the request besides its bytes, filled once before the handler runs
/// (`PanelApp.guarded`): who is asking, the browser's form key and CSRF token, the language, the
/// access of the route answering, the one-time message, and the cookies the answer sets.
/// Handlers receive it as a parameter and never ask the stores again.
struct PanelContext: Sendable {
    /// A person signed in with a password. False for `local` and for nobody.
    let signedIn: Bool
    /// Who acts: a person's name, `local` (the implicit owner when sign-in is off), or "" (nobody).
    let person: String
    let role: Role
    /// The stored session's hash, when signed in: marks "this browser" on /account, binds the token.
    let sessionHash: String?
    let localizer: Localizer
    var language: Language { localizer.language }
    /// Who may reach the route answering.
    let access: RouteAccess
    /// The key of the browser's `om_form` cookie, when it sent a well-formed one.
    let browserFormKey: String?
    /// This browser's form key: owner of staged uploads, base of the CSRF token; its own or one
    /// made for this answer (`withFormKey`), "" when neither. Not the session id.
    private(set) var formKey: String
    /// The token every form of this browser carries (`csrf_token`), "" without a form key.
    private(set) var csrfToken: String
    /// The one-time message a GET page shows (taken from its cookie).
    var flash: String?
    /// Cookies the answer sets when it is a page (a new form key, the message taken).
    var cookies: [SetCookie] = []
    /// Where the header's language links lead (`Pages.languageSwitchTarget`).
    var languageSwitchTarget: String
    private let formTokens: FormTokens

    init(signedIn: Bool, person: String, role: Role, sessionHash: String?, localizer: Localizer, access: RouteAccess,
         browserFormKey: String?, formTokens: FormTokens, languageSwitchTarget: String) {
        self.signedIn = signedIn
        self.person = person
        self.role = role
        self.sessionHash = sessionHash
        self.localizer = localizer
        self.access = access
        self.browserFormKey = browserFormKey
        self.formTokens = formTokens
        self.languageSwitchTarget = languageSwitchTarget
        formKey = browserFormKey ?? ""
        csrfToken = browserFormKey.map { formTokens.token(for: $0, session: sessionHash) } ?? ""
    }

    /// This context with a form key: a browser without one gets a new key in a cookie. Nothing is
    /// stored for it (the token is derived from the key), so any page may hand one out.
    func withFormKey() -> PanelContext {
        guard formKey.isEmpty else { return self }
        var context = self
        context.formKey = SecureToken.make()
        context.csrfToken = formTokens.token(for: context.formKey, session: sessionHash)
        context.cookies.insert(FormTokens.cookie(context.formKey), at: 0)
        return context
    }

    /// This context as an error page shows it: the browser's own key only, no message taken, no cookie set.
    var forErrorPage: PanelContext {
        var context = self
        context.flash = nil
        context.cookies = []
        if browserFormKey == nil {
            context.formKey = ""
            context.csrfToken = ""
        }
        return context
    }

    /// True when the form carries this browser's token (signed double-submit: checked against the
    /// form-key cookie, so it needs no stored session and survives restarts).
    func isValid(formToken: String?) -> Bool {
        formTokens.isValid(formToken, browserKey: browserFormKey, session: sessionHash)
    }
}
