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

/// Renders a page template into the layout. Templates are parsed once at start; a page is two
/// walks over prepared value trees, no reflection.
struct PageRenderer: Sendable {
    let templates: TemplateSet
    let version: String
    let apiHost: String

    /// The names every panel needs; checked at start so a missing file fails early.
    static let requiredTemplates = ["layout", "products", "product", "product_new", "product_edit",
                                    "product_form", "product_delete", "error", "not_found", "login",
                                    "password_setup", "new_password_fields", "people", "account", "activity"]

    init(templates: TemplateSet, version: String, apiHost: String) throws {
        let missing = Self.requiredTemplates.filter { !templates.names.contains($0) }
        guard missing.isEmpty else {
            throw PanelStartupError("the templates folder lacks " + missing.map { "\($0).html" }.joined(separator: ", "))
        }
        self.templates = templates
        self.version = version
        self.apiHost = apiHost
    }

    func page(_ template: String, title: String, context: [String: TemplateValue],
              chrome: PageChrome, status: Int = 200) throws -> HTTPResponse {
        let catalog = chrome.localizer.catalog
        var context = context
        context["t"] = catalog.templateValue
        // Roles: templates wrap every write control in {{#can_write}} and people links in {{#is_owner}}.
        let role = chrome.session?.role ?? (chrome.accessControl ? .viewer : .owner)
        context["can_write"] = .bool(role.canWrite)
        context["is_owner"] = .bool(role.canManagePeople)
        let body = try templates.render(template, .object(context))
        let frame: TemplateValue = .object([
            "t": catalog.templateValue,
            "lang": .string(catalog.language.rawValue),
            "strings": .string(catalog.scriptJSON),
            "languages": .list(Language.allCases.map { language in
                let separator = chrome.languageSwitchTarget.contains("?") ? "&" : "?"
                return .object([
                    "code": .string(language.rawValue),
                    "label": .string(chrome.localizer("language_name_\(language.rawValue)")),
                    "url": .string(chrome.languageSwitchTarget + separator + "lang=" + language.rawValue),
                    "current": .bool(language == catalog.language),
                ])
            }),
            "title": .string(title),
            "body": .trustedHTML(body),
            "flash": chrome.flash.map { .object(["message": .string($0)]) } ?? .null,
            "signed_in": .bool(chrome.accessControl && (chrome.session?.signedIn ?? false)),
            // Before signing in, links elsewhere would only lead back to the sign-in page.
            "show_nav": .bool(!chrome.accessControl || (chrome.session?.signedIn ?? false)),
            "csrf_token": .string(chrome.session?.csrfToken ?? ""),
            "nav_products": .bool(chrome.section == .products),
            "nav_register": .bool(chrome.section == .register),
            "nav_activity": .bool(chrome.section == .activity),
            "nav_people": .bool(chrome.section == .people),
            "nav_sales": .bool(chrome.section == .sales),
            "nav_drafts": .bool(chrome.section == .drafts),
            "nav_trash": .bool(chrome.section == .trash),
            "nav_account": .bool(chrome.section == .account),
            "can_write": .bool(role.canWrite),
            "is_owner": .bool(role.canManagePeople),
            "person": .string(chrome.session?.person ?? ""),
            "version": .string(version),
            "api_host": .string(apiHost),
        ])
        return HTTPResponse.html(try templates.render("layout", frame), status: status)
    }
}

/// A start-up problem explained in one sentence (missing folder, bad template…).
public struct PanelStartupError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
