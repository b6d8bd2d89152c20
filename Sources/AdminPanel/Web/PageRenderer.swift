import Foundation
import HTMLTemplates
import HTTPServer

/// The header's section a page belongs to (marked in the navigation).
enum PageSection: Sendable { case products, register, activity, people, account, sales, drafts, trash, none }

/// Renders a page into the layout. Every page is typed (`PageView`, listed in `pageViews`):
/// compiled once per language at start-up, rendered with the compiled frame straight into the
/// response's bytes.
struct PageRenderer: Sendable {
    /// Every language's texts, for what names a text in all of them (an import file's reason column).
    let catalogs: StringCatalogs
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

    init(assets: PageAssets, version: String, apiHost: String) {
        self.catalogs = assets.catalogs
        self.version = version
        self.apiHost = apiHost
        self.compiled = assets.compiled
    }

    /// Every language's frame and pages, compiled from `templates` with that language's texts.
    static func compile(templates: TemplateSet, catalogs: StringCatalogs) throws -> [Language: CompiledPages] {
        let missing = Self.requiredTemplates.filter { !templates.names.contains($0) }
        guard missing.isEmpty else {
            throw PanelStartupError("the templates folder lacks " + missing.map { "\($0).html" }.joined(separator: ", "))
        }
        var compiled: [Language: CompiledPages] = [:]
        for language in Language.allCases {
            do {
                compiled[language] = try CompiledPages(templates: templates, catalog: catalogs[language], pageViews: Self.pageViews)
            } catch {
                throw PanelStartupError("the templates do not fit their views (\(language.rawValue)): \(error)")
            }
        }
        return compiled
    }

    /// A typed page in the frame: one buffer, no dictionaries.
    /// `accessControl`: sign-in is on (the header shows who is signed in).
    func page<View: PageView>(_ view: View, title: String, context: PanelContext, accessControl: Bool,
                              section: PageSection, status: Int = 200) throws -> HTTPResponse {
        let catalog = context.localizer.catalog
        guard let pages = compiled[catalog.language], let program = pages.program(for: View.self) else {
            throw PanelStartupError("\(View.self) is not in PageRenderer.pageViews")
        }
        let access = PageAccess(canWrite: context.role.canWrite, isOwner: context.role.canManagePeople)
        var view = view
        view.access = access
        let separator = context.languageSwitchTarget.contains("?") ? "&" : "?"
        let frame = FrameView(
            language: catalog.language.rawValue,
            escapedScriptStrings: pages.escapedScriptStrings,
            languages: Language.allCases.map { language in
                LanguageLinkView(code: language.rawValue, label: context.localizer("language_name_\(language.rawValue)"),
                                 url: context.languageSwitchTarget + separator + "lang=" + language.rawValue,
                                 current: language == catalog.language)
            },
            title: title,
            flash: context.flash.map(MessageView.init),
            signedIn: accessControl && context.signedIn,
            showNav: !accessControl || context.signedIn,
            csrfToken: context.csrfToken,
            section: section,
            access: access,
            person: context.person,
            version: version,
            apiHost: apiHost)
        let body = try pages.frame.render(frame, around: program.embedding(view), capacity: pages.capacityHint)
        return HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "text/html; charset=utf-8")]), body: .data(body))
    }
}

/// A start-up problem explained in one sentence (missing folder, bad template…).
public struct PanelStartupError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
