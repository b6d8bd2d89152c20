import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

/// The browser's session as a page sees it, plus the cookie to set when it is new.
struct Visit: Sendable {
    var session: SessionSnapshot?
    var flash: String?
    /// Cookies the response sets (a new form key, a flash message taken).
    var cookies: [SetCookie] = []
    var localizer: Localizer
    var languageSwitchTarget = "/products"
}

/// The page plumbing every handler uses: who is visiting (`visit`), a typed page in the frame
/// (`page`, `chrome`), redirects with a one-time message, the CSRF check, and failures turned
/// into error pages. `PanelApp` builds one; every controller holds it (`PageHandling`).
struct Pages: Sendable {
    let configuration: PanelConfiguration
    let renderer: PageRenderer
    let visitors: Visitors
    let formTokens: FormTokens
    let flashCookie: FlashCookie

    var accessControl: Bool { configuration.signIn }

    /// The request's language (`?lang=`, the `om_lang` cookie, `Accept-Language`, English).
    func localizer(for request: HTTPRequest) -> Localizer { visitors.localizer(for: request) }

    /// A visit for a POST whose session is already known (the CSRF check found it).
    func visit(_ request: HTTPRequest, session: SessionSnapshot) -> Visit {
        Visit(session: session, localizer: localizer(for: request), languageSwitchTarget: Self.languageSwitchTarget(request))
    }

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

    /// The browser's visit: who it is (`session.person`, `session.role`), its form token and its
    /// one-time flash message. Nothing is stored for it: a browser without a form key gets one in
    /// a cookie, and the token is derived from that key (`FormTokens`). `create` is kept for the
    /// callers' sake; every page may get a form key now, since it costs no storage.
    func visit(_ request: HTTPRequest, create: Bool = true, takeFlash: Bool = true) async -> Visit {
        let requestContext = await visitors.context(for: request)
        let identity = requestContext.identity
        var cookies: [SetCookie] = []
        var browserKey = requestContext.formKey
        if browserKey == nil, create {
            browserKey = SecureToken.make()
            cookies.append(FormTokens.cookie(browserKey!))
        }
        var flash: String?
        if takeFlash, request.cookies[FlashCookie.cookieName] != nil {
            flash = flashCookie.message(request)
            cookies.append(.expired(FlashCookie.cookieName))
        }
        let session = SessionSnapshot(id: browserKey ?? "", csrfToken: browserKey.map { formTokens.token(for: $0, session: identity.sessionHash) } ?? "",
                                      signedIn: identity.signedIn, person: identity.person, role: identity.role,
                                      sessionHash: identity.sessionHash)
        return Visit(session: session, flash: flash, cookies: cookies, localizer: requestContext.localizer,
                     languageSwitchTarget: Self.languageSwitchTarget(request))
    }

    func chrome(_ visit: Visit, section: PageChrome.Section = .none) -> PageChrome {
        PageChrome(flash: visit.flash, session: visit.session, accessControl: accessControl, section: section,
                   localizer: visit.localizer, languageSwitchTarget: visit.languageSwitchTarget)
    }

    /// A typed page (`PageView`) in the frame, with the visit's cookies.
    func page<View: PageView>(_ view: View, title: String, visit: Visit,
                              section: PageChrome.Section = .none, status: Int = 200) throws -> HTTPResponse {
        var response = try renderer.page(view, title: title, chrome: chrome(visit, section: section), status: status)
        for cookie in visit.cookies { response.setCookie(cookie) }
        return response
    }

    /// 303 to `location`, leaving a one-time message for the next page.
    func redirect(to location: String, flash: String?, session: SessionSnapshot?) async -> HTTPResponse {
        var response = HTTPResponse.redirect(to: location, status: 303)
        if let flash { response.setCookie(flashCookie.cookie(flash)) }
        return response
    }

    // MARK: CSRF

    /// The visit of a POST whose form carries this browser's token; else a 403 page. The token
    /// is checked against the browser's form-key cookie (signed double-submit), so it needs no
    /// stored session and survives restarts. (The Origin header is checked earlier, for every POST.)
    func requireCSRF(_ request: HTTPRequest, formToken: String?) async throws -> SessionSnapshot {
        let visit = await visit(request, create: false, takeFlash: false)
        guard let session = visit.session,
              formTokens.isValid(formToken, browserKey: FormTokens.browserKey(request), session: session.sessionHash) else {
            throw PageFailure(status: 403, heading: "failure_csrf_heading", message: "failure_csrf_message")
        }
        return session
    }

    // MARK: errors

    func errorPage(_ failure: PageFailure, request: HTTPRequest) async -> HTTPResponse {
        let visit = await visit(request, create: false, takeFlash: false)
        let l = visit.localizer
        let heading = l(failure.heading, failure.arguments)
        let statusText = l("error_status", ["status": String(failure.status)])
        let message = l(failure.message, failure.arguments)
        do {
            var response = failure.status == 404
                ? try page(NotFoundPageView(statusText: statusText, heading: heading, message: message),
                           title: heading, visit: visit, status: failure.status)
                : try page(ErrorPageView(statusText: statusText, heading: heading, message: message,
                                         detail: failure.detail.map(TextView.init), retry: failure.retryURL.map(LinkView.init)),
                           title: heading, visit: visit, status: failure.status)
            if failure.status == 413 { response.headers["Connection"] = "close" }
            return response
        } catch {
            return .text("\(heading). \(l(failure.message, failure.arguments))", status: failure.status)
        }
    }

    /// Wraps a handler so failures become pages: a `PageFailure` as is, an API error by its
    /// meaning (with a retry link for GETs), a body-parsing error by its status.
    func pageHandler(_ handler: @escaping HTTPHandler) -> HTTPHandler {
        { [self] request in
            var response = await handle(request, handler)
            // `?lang=` (the header's links) is remembered for the next pages.
            if let chosen = request.query["lang"].flatMap({ Language(rawValue: $0.lowercased()) }),
               chosen.rawValue != request.cookies[Language.cookieName] {
                response.setCookie(SetCookie(name: Language.cookieName, value: chosen.rawValue, maxAge: 365 * 24 * 3600,
                                             sameSite: .lax))
            }
            return response
        }
    }

    private func handle(_ request: HTTPRequest,
                        _ handler: HTTPHandler) async -> HTTPResponse {
        do {
            return try await handler(request)
        } catch let failure as PageFailure {
                return await errorPage(failure, request: request)
            } catch let error as OpenMarketError {
                let retry = request.method == "GET" ? request.path : nil
                return await errorPage(PageFailure(error, retryURL: retry), request: request)
            } catch let error as HTTPError {
                return await errorPage(failure(for: error), request: request)
            } catch {
                // A bug or a local fault (template, disk): say so without details that could leak.
                return await errorPage(PageFailure(status: 500, heading: "failure_internal_heading",
                                                   message: "failure_internal_message"),
                                       request: request)
            }
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
