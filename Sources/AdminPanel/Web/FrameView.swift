import HTMLTemplates

/// `layout.html`: the frame around every page (header, navigation, language links, flash,
/// footer). The page itself is rendered in place of `{{{body}}}`, into the same buffer.
struct FrameView: TemplateView {
    var language: String
    /// The `js_` texts as JSON, escaped once per language at start (`PageRenderer`).
    var escapedScriptStrings: String
    var languages: [LanguageLinkView]
    var title: String
    var flash: MessageView?
    var signedIn: Bool
    var showNav: Bool
    var csrfToken: String
    var section: PageSection
    var access: PageAccess
    var person: String
    var version: String
    var apiHost: String

    static let templateFields: ViewFields<FrameView> = [
        .text("lang") { $0.language },
        .trustedHTML("strings") { $0.escapedScriptStrings },
        .list("languages") { $0.languages },
        .text("title") { $0.title },
        .body("body"),
        .optionalView("flash") { $0.flash },
        .flag("signed_in") { $0.signedIn },
        .flag("show_nav") { $0.showNav },
        .text("csrf_token") { $0.csrfToken },
        .flag("nav_products") { $0.section == .products },
        .flag("nav_register") { $0.section == .register },
        .flag("nav_activity") { $0.section == .activity },
        .flag("nav_people") { $0.section == .people },
        .flag("nav_sales") { $0.section == .sales },
        .flag("nav_drafts") { $0.section == .drafts },
        .flag("nav_trash") { $0.section == .trash },
        .flag("nav_account") { $0.section == .account },
        .flag("can_write") { $0.access.canWrite },
        .flag("is_owner") { $0.access.isOwner },
        .text("person") { $0.person },
        .text("version") { $0.version },
        .text("api_host") { $0.apiHost },
    ]
}
