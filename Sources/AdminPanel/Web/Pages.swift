import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

/// The page plumbing every handler uses with its `PanelContext`: a typed page in the frame
/// (`page`), redirects with a one-time message, the CSRF check, and failures turned into error
/// pages. `PanelApp` builds one; the controllers that render pages hold it.
struct Pages: Sendable {
    let configuration: PanelConfiguration
    let renderer: PageRenderer
    let flashCookie: FlashCookie

    /// Where the header's language links lead: this page again (its query without `lang`). A
    /// re-rendered form (a POST) switches on its GET page, since a link cannot repeat a POST.
    static func languageSwitchTarget(_ request: HTTPRequest) -> String {
        guard request.method == "GET" || request.method == "HEAD" else {
            return request.path == "/products" ? "/products/new" : request.path
        }
        let items = request.queryItems.filter { $0.name != "lang" }.prefix(20)
        guard !items.isEmpty else { return request.path }
        return request.path + "?" + items.map { ListLinks.encode($0.name) + "=" + ListLinks.encode($0.value) }.joined(separator: "&")
    }

    /// A typed page (`PageView`) in the frame, with the context's cookies.
    func page<View: PageView>(_ view: View, title: String, context: PanelContext,
                              section: PageSection = .none, status: Int = 200) throws -> HTTPResponse {
        var response = try renderer.page(view, title: title, context: context, accessControl: configuration.signIn,
                                         section: section, status: status)
        for cookie in context.cookies { response.setCookie(cookie) }
        return response
    }

    /// 303 to `location`, leaving a one-time message for the next page.
    func redirect(to location: String, flash: String?) -> HTTPResponse {
        var response = HTTPResponse.redirect(to: location, status: 303)
        if let flash { response.setCookie(flashCookie.cookie(flash)) }
        return response
    }

    /// Throws a 403 page unless the form carries this browser's token. (The Origin header is
    /// checked earlier, for every POST.)
    func requireCSRF(_ context: PanelContext, formToken: String?) throws {
        guard context.isValid(formToken: formToken) else {
            throw PageFailure(status: 403, heading: "failure_csrf_heading", message: "failure_csrf_message")
        }
    }

    // MARK: errors

    func errorPage(_ failure: PageFailure, context: PanelContext) -> HTTPResponse {
        let context = context.forErrorPage
        let l = context.localizer
        let heading = l(failure.heading, failure.arguments)
        let statusText = l("error_status", ["status": String(failure.status)])
        let message = l(failure.message, failure.arguments)
        do {
            var response = failure.status == 404
                ? try page(NotFoundPageView(statusText: statusText, heading: heading, message: message),
                           title: heading, context: context, status: failure.status)
                : try page(ErrorPageView(statusText: statusText, heading: heading, message: message,
                                         detail: failure.detail.map(TextView.init), retry: failure.retryURL.map(LinkView.init)),
                           title: heading, context: context, status: failure.status)
            if failure.status == 413 { response.headers["Connection"] = "close" }
            return response
        } catch {
            return .text("\(heading). \(l(failure.message, failure.arguments))", status: failure.status)
        }
    }

    /// Runs a page handler so failures become pages: a `PageFailure` as is, an API error by its
    /// meaning (with a retry link for GETs), a body-parsing error by its status.
    func respond(_ request: HTTPRequest, _ context: PanelContext,
                 _ handler: (HTTPRequest, PanelContext) async throws -> HTTPResponse) async -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try await handler(request, context)
        } catch let failure as PageFailure {
            response = errorPage(failure, context: context)
        } catch let error as OpenMarketError {
            let retry = request.method == "GET" ? request.path : nil
            response = errorPage(PageFailure(error, retryURL: retry), context: context)
        } catch let error as HTTPError {
            response = errorPage(failure(for: error), context: context)
        } catch {
            // A bug or a local fault (template, disk): say so without details that could leak.
            response = errorPage(PageFailure(status: 500, heading: "failure_internal_heading", message: "failure_internal_message"),
                                 context: context)
        }
        // `?lang=` (the header's links) is remembered for the next pages.
        if let chosen = request.query["lang"].flatMap({ Language(rawValue: $0.lowercased()) }),
           chosen.rawValue != request.cookies[Language.cookieName] {
            response.setCookie(SetCookie(name: Language.cookieName, value: chosen.rawValue, maxAge: 365 * 24 * 3600,
                                         sameSite: .lax))
        }
        return response
    }

    func failure(for error: HTTPError) -> PageFailure {
        switch error.status {
        case 413:
            // The form's own limits each get their own words, so nobody shrinks images to fix a
            // text that is too long; the whole request over the route's limit is about images.
            switch error.limit {
            case .parts(let max)?, .fields(let max)?:
                PageFailure(status: 413, heading: "failure_form_too_large_heading", message: "failure_form_too_many_parts",
                            arguments: ["max": "\(max)"])
            case .partHeaders(let maxBytes)?:
                PageFailure(status: 413, heading: "failure_form_too_large_heading", message: "failure_form_part_headers_too_large",
                            arguments: ["max": "\(maxBytes / 1024)"])
            case .field(let name, let maxBytes)?:
                PageFailure(status: 413, heading: "failure_form_too_large_heading", message: "failure_form_field_too_large",
                            arguments: ["field": String(name.prefix(40)), "max": "\(maxBytes / 1024)"])
            case .file(_, let maxBytes)?:
                PageFailure(status: 413, heading: "failure_too_large_heading", message: "failure_form_file_too_large",
                            arguments: ["max": "\(maxBytes >> 20)"])
            case nil:
                PageFailure(status: 413, heading: "failure_too_large_heading", message: "failure_panel_too_large_message",
                            arguments: ["total": "\(configuration.uploadLimit >> 20)", "max": "\(ProductRules.maxImageBytes / 1024)"])
            }
        case 404:
            .notFound()
        default:
            PageFailure(status: error.status, heading: "failure_unreadable_request_heading", message: "failure_unreadable_request_message",
                        detail: error.message)
        }
    }

    /// The product id of `/products/{id}…`, or a 404 page.
    static func productID(_ request: HTTPRequest) throws -> Int {
        guard let text = request.pathParameters["id"], let id = Int(text), id > 0 else {
            throw PageFailure.notFound("failure_no_product_here")
        }
        return id
    }
}
