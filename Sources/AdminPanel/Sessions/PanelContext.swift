import Foundation
import HTTPServer

/// What a handler knows about the request besides its bytes. The router makes it from the route
/// it matched (`init(request:route:)`: the access needed); the access check fills the rest once
/// (`PanelApp.accessMiddleware`): who is asking, the browser's form key and CSRF token, the
/// language, the one-time message, the cookies the answer sets, and the panel answering.
/// Handlers receive it as a parameter and never ask the stores again.
struct PanelContext: RequestContext {
    /// A person signed in with a password. False for `local` and for nobody.
    let signedIn: Bool
    /// Who acts: a person's name, `local` (the implicit owner when sign-in is off), or "" (nobody).
    let person: String
    let role: Role
    /// The stored session's hash, when signed in: marks "this browser" on /account, binds the token.
    let sessionHash: String?
    let localizer: Localizer
    var language: Language { localizer.language }
    /// Who may reach the route answering (a request no route answers: what its path needs).
    let access: RouteAccess
    /// False when nobody's identity is asked for: routes that need none (assets, health), and
    /// requests no route answers that anyone may send.
    let needsVisitor: Bool
    /// True once the visitor is filled in (`Visitors.context`); the router's context knows only the route.
    let hasVisitor: Bool
    /// True when the request's body is over its route's limit (the answer is a 413 whatever it says).
    private(set) var bodyRefused = false
    /// The panel answering: its controllers and page plumbing (set by the access check).
    private(set) var panel: PanelApp?
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
         browserFormKey: String?, formTokens: FormTokens, languageSwitchTarget: String,
         needsVisitor: Bool = true, hasVisitor: Bool = true) {
        self.needsVisitor = needsVisitor
        self.hasVisitor = hasVisitor
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

    /// The context the router starts a request with: the access its route needs, nobody asking
    /// yet. A request no route answers needs what the routes beside it need: a 405 the strictest
    /// of the routes at its path (the answer reveals no more than they would), a 404 a signed-in
    /// person, and an editor to send anything but GET/HEAD.
    init(request: HTTPRequest, route: RouteLookup<PanelRouteOptions>) {
        let access: RouteAccess
        let needsVisitor: Bool
        switch route {
        case .found(let route), .bodyRefused(let route):
            access = route.options.access
            needsVisitor = route.options.kind != .open
        case .methodNotAllowed(let routes):
            access = routes.reduce(RouteAccess.anyone) { $0.stricter($1.options.access) }
            needsVisitor = access != .anyone
        case .notFound:
            access = request.method == "GET" || request.method == "HEAD" ? .viewer : .editor
            needsVisitor = true
        }
        self.init(signedIn: false, person: "", role: .viewer, sessionHash: nil, localizer: Self.nobodysLocalizer, access: access,
                  browserFormKey: nil, formTokens: Self.nobodysFormTokens, languageSwitchTarget: "",
                  needsVisitor: needsVisitor, hasVisitor: false)
        if case .bodyRefused = route { bodyRefused = true }
    }

    /// Stand-ins until the visitor is known: no texts, and no token is valid (no form key).
    private static let nobodysLocalizer = Localizer(catalog: StringCatalog(language: .en, texts: [:]))
    private static let nobodysFormTokens = FormTokens(key: [])

    /// The panel answering; set before any handler runs (`PanelApp.accessMiddleware`).
    func answeringPanel() throws -> PanelApp {
        guard let panel else { throw HTTPError(status: 500, message: "No panel answers this request") }
        return panel
    }

    /// This context, answered by `panel`.
    func answered(by panel: PanelApp) -> PanelContext {
        var context = self
        context.panel = panel
        return context
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
