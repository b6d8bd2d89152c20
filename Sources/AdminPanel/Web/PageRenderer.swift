import Foundation
import HTMLTemplates
import HTTPServer

/// What the frame around a page shows besides the page itself.
struct PageChrome: Sendable {
    enum Section: Sendable { case products, register, activity, people, account, sales, drafts, trash, none }
    var flash: String?
    var session: SessionSnapshot?
    var accessControl = false
    var section: Section = .none
    var localizer: Localizer
    /// This page's address without `lang=`, for the header's language links.
    var languageSwitchTarget = "/products"
}

/// Renders a page into the layout. Every page is typed (`PageView`, listed in `pageViews`):
/// compiled once per language at start-up, rendered with the compiled frame straight into the
/// response's bytes.
struct PageRenderer: Sendable {
    let templates: TemplateSet
    let version: String
    let apiHost: String
    /// The compiled frame and pages, per language (built at start; a template naming a field
    /// its view lacks stops the panel there, with `file.html:line`).
    private let compiled: [Language: CompiledPages]

    /// Every typed page. A new typed page adds its view type here.
    static let pageViews: [any PageView.Type] = [
        ErrorPageView.self, NotFoundPageView.self, ProductListView.self,
        LoginPageView.self, PasswordSetupView.self, AccountPageView.self, PeoplePageView.self,
        ImportFormView.self, ImportPreviewView.self, ImportResultView.self, TrashPageView.self, BulkResultView.self,
        ProductNewPageView.self, ProductEditPageView.self, ProductDeletePageView.self, DraftsPageView.self,
        ActivityPageView.self, SalesPageView.self, ProductDetailView.self, RevertResultView.self, SheetPageView.self,
    ]

    /// The names every panel needs; checked at start so a missing file fails early.
    static let requiredTemplates = ["layout", "products", "product", "product_new", "product_edit",
                                    "product_form", "product_delete", "error", "not_found", "login",
                                    "password_setup", "new_password_fields", "people", "account", "activity"]

    init(templates: TemplateSet, version: String, apiHost: String, catalogs: StringCatalogs) throws {
        let missing = Self.requiredTemplates.filter { !templates.names.contains($0) }
        guard missing.isEmpty else {
            throw PanelStartupError("the templates folder lacks " + missing.map { "\($0).html" }.joined(separator: ", "))
        }
        self.templates = templates
        self.version = version
        self.apiHost = apiHost
        var compiled: [Language: CompiledPages] = [:]
        for language in Language.allCases {
            do {
                compiled[language] = try CompiledPages(templates: templates, catalog: catalogs[language], pageViews: Self.pageViews)
            } catch {
                throw PanelStartupError("the templates do not fit their views (\(language.rawValue)): \(error)")
            }
        }
        self.compiled = compiled
    }

    /// A typed page in the frame: one buffer, no dictionaries.
    func page<View: PageView>(_ view: View, title: String, chrome: PageChrome, status: Int = 200) throws -> HTTPResponse {
        let catalog = chrome.localizer.catalog
        guard let pages = compiled[catalog.language], let program = pages.program(for: View.self) else {
            throw PanelStartupError("\(View.self) is not in PageRenderer.pageViews")
        }
        let access = Self.access(chrome)
        var view = view
        view.access = access
        let frame = FrameView(
            language: catalog.language.rawValue,
            escapedScriptStrings: pages.escapedScriptStrings,
            languages: Language.allCases.map { language in
                let separator = chrome.languageSwitchTarget.contains("?") ? "&" : "?"
                return LanguageLinkView(code: language.rawValue, label: chrome.localizer("language_name_\(language.rawValue)"),
                                        url: chrome.languageSwitchTarget + separator + "lang=" + language.rawValue,
                                        current: language == catalog.language)
            },
            title: title,
            flash: chrome.flash.map(MessageView.init),
            signedIn: chrome.accessControl && (chrome.session?.signedIn ?? false),
            showNav: !chrome.accessControl || (chrome.session?.signedIn ?? false),
            csrfToken: chrome.session?.csrfToken ?? "",
            section: chrome.section,
            access: access,
            person: chrome.session?.person ?? "",
            version: version,
            apiHost: apiHost)
        let body = try pages.frame.render(frame, around: program.embedding(view), capacity: pages.capacityHint)
        return HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "text/html; charset=utf-8")]), body: .data(body))
    }

    private static func access(_ chrome: PageChrome) -> PageAccess {
        let role = chrome.session?.role ?? (chrome.accessControl ? .viewer : .owner)
        return PageAccess(canWrite: role.canWrite, isOwner: role.canManagePeople)
    }
}

/// A start-up problem explained in one sentence (missing folder, bad template…).
public struct PanelStartupError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
