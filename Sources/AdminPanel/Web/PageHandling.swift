import Foundation
import HTMLTemplates
import HTTPServer

/// A controller's handlers call the page plumbing unqualified (`visit(request)`, `page(...)`,
/// `redirect(...)`, `requireCSRF(...)`), as they did when they were extensions of one app type.
/// Every method here only forwards to the controller's own `pages` value: no state and no other
/// dependency comes with it.
protocol PageHandling {
    var pages: Pages { get }
}

extension PageHandling {
    var accessControl: Bool { pages.accessControl }

    func localizer(for request: HTTPRequest) -> Localizer { pages.localizer(for: request) }

    func identify(_ request: HTTPRequest) async -> Identity { await pages.visitors.identify(request) }

    func visit(_ request: HTTPRequest, session: SessionSnapshot) -> Visit { pages.visit(request, session: session) }

    func visit(_ request: HTTPRequest, create: Bool = true, takeFlash: Bool = true) async -> Visit {
        await pages.visit(request, create: create, takeFlash: takeFlash)
    }

    func chrome(_ visit: Visit, section: PageChrome.Section = .none) -> PageChrome { pages.chrome(visit, section: section) }

    func page<View: PageView>(_ view: View, title: String, visit: Visit,
                              section: PageChrome.Section = .none, status: Int = 200) throws -> HTTPResponse {
        try pages.page(view, title: title, visit: visit, section: section, status: status)
    }

    func redirect(to location: String, flash: String?, session: SessionSnapshot?) async -> HTTPResponse {
        await pages.redirect(to: location, flash: flash, session: session)
    }

    func requireCSRF(_ request: HTTPRequest, formToken: String?) async throws -> SessionSnapshot {
        try await pages.requireCSRF(request, formToken: formToken)
    }

    func errorPage(_ failure: PageFailure, request: HTTPRequest) async -> HTTPResponse {
        await pages.errorPage(failure, request: request)
    }

    func failure(for error: HTTPError) -> PageFailure { pages.failure(for: error) }

    static func productID(_ request: HTTPRequest) throws -> Int { try Pages.productID(request) }
}
