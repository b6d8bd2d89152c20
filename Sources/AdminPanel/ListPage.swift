import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

/// The two ways to show the product list.
enum ListView: String, Sendable {
    case list, grid
}

/// Links of the list page: they always carry the page, the view and the search.
struct ListLinks: Sendable {
    var view: ListView
    var query: String

    func url(page: Int, view: ListView? = nil) -> String {
        var items = ["page=\(page)", "view=\((view ?? self.view).rawValue)"]
        if !query.isEmpty { items.append("q=" + Self.encode(query)) }
        return "/products?" + items.joined(separator: "&")
    }

    /// Query-component encoding: everything but unreserved ASCII becomes %XX (UTF-8 bytes).
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// RFC 3986's unreserved characters, built once: `encode` runs for every link of a search page.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

/// Numbered page links: the first, the last, and two on each side of the current page, with
/// gaps ("…") where pages are skipped.
enum Pagination {
    static func numbers(current: Int, last: Int) -> [Int?] {
        guard last > 1 else { return [] }
        var wanted = Set([1, last])
        for n in (current - 2)...(current + 2) where n >= 1 && n <= last { wanted.insert(n) }
        var result: [Int?] = []
        var previous = 0
        for n in wanted.sorted() {
            if n - previous > 1 { result.append(nil) }
            result.append(n)
            previous = n
        }
        return result
    }

    static func templateValue(current: Int, last: Int, hasPrev: Bool, hasNext: Bool, links: ListLinks) -> TemplateValue {
        guard last > 1 || hasPrev || hasNext else { return .null }
        let pages: [TemplateValue] = numbers(current: current, last: max(last, current)).map { number in
            guard let number else { return .object(["gap": true]) }
            return .object(["gap": false, "number": .int(number), "url": .string(links.url(page: number)),
                            "current": .bool(number == current)])
        }
        return .object([
            "prev": hasPrev ? .object(["url": .string(links.url(page: current - 1))]) : .null,
            "next": hasNext ? .object(["url": .string(links.url(page: current + 1))]) : .null,
            "pages": .list(pages),
        ])
    }
}

extension PanelApp {
    /// `GET /products?page=N&view=list|grid&q=TEXT`
    func listPage(_ request: HTTPRequest) async throws -> HTTPResponse {
        let chosenView = request.query["view"].flatMap(ListView.init(rawValue:))
        let view = chosenView ?? request.cookies[Self.viewCookie].flatMap(ListView.init(rawValue:)) ?? .list
        let pageNumber = min(max(1, Int(request.query["page"] ?? "") ?? 1), 1_000_000)
        let search = String((request.query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(100))
        let links = ListLinks(view: view, query: search)
        let retry = links.url(page: pageNumber)

        let visit = await visit(request, create: false)
        let l = visit.localizer
        let listing: ProductListPage
        do {
            listing = try await client.listProducts(page: pageNumber, itemsPerPage: configuration.itemsPerPage,
                                                    search: search.isEmpty ? nil : search)
        } catch {
            throw PageFailure(error, retryURL: retry)
        }
        let ownVendor = await vendor.id
        let products = listing.pages.map { presenter.listItem($0, ownVendorID: ownVendor, l) }

        var context: [String: TemplateValue] = [
            "view": .string(view.rawValue),
            "is_list": .bool(view == .list),
            "is_grid": .bool(view == .grid),
            "list_url": .string(links.url(page: pageNumber, view: .list)),
            "grid_url": .string(links.url(page: pageNumber, view: .grid)),
            "q": .string(search),
            "clear_search": search.isEmpty ? .null : .object(["url": .string(ListLinks(view: view, query: "").url(page: 1))]),
            "has_products": .bool(!products.isEmpty),
            "products": .list(products),
            "total_text": .string(Self.totalText(listing, search: search, l)),
            "pagination": products.isEmpty ? .null : Pagination.templateValue(
                current: listing.pageNo, last: listing.lastPage, hasPrev: listing.hasPrev,
                hasNext: listing.hasNext, links: links),
        ]
        context["empty"] = products.isEmpty ? Self.emptyState(page: pageNumber, search: search, links: links, l) : .null

        var response = try page("products", title: search.isEmpty ? l("list_heading") : l("list_search_title", ["query": search]), context: context,
                                visit: visit, section: .products)
        if let chosenView, chosenView.rawValue != request.cookies[Self.viewCookie] {
            response.setCookie(SetCookie(name: Self.viewCookie, value: chosenView.rawValue, maxAge: 365 * 24 * 3600))
        }
        return response
    }

    static func totalText(_ listing: ProductListPage, search: String, _ l: Localizer) -> String {
        let count = listing.totalCount
        if !search.isEmpty { return l.plural("list_total_search", count: count, ["query": search]) }
        guard count > 0 else { return "" }
        return l.plural("list_total", count: count, ["page": l.number(listing.pageNo), "last": l.number(max(1, listing.lastPage))])
    }

    static func emptyState(page: Int, search: String, links: ListLinks, _ l: Localizer) -> TemplateValue {
        if !search.isEmpty {
            return .object([
                "title": .string(l("list_empty_search_title", ["query": search])),
                "message": .string(l("list_empty_search_message")),
                "show_register": false,
                "back": .object(["url": .string(ListLinks(view: links.view, query: "").url(page: 1)),
                                 "label": .string(l("list_show_all"))]),
            ])
        }
        if page > 1 {
            return .object([
                "title": .string(l("list_empty_page_title", ["page": l.number(page)])),
                "message": .string(l("list_empty_page_message")),
                "show_register": false,
                "back": .object(["url": .string(links.url(page: 1)), "label": .string(l("list_first_page"))]),
            ])
        }
        return .object([
            "title": .string(l("list_empty_title")),
            "message": .string(l("list_empty_message")),
            "show_register": true,
            "back": .null,
        ])
    }
}
