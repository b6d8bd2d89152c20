import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

/// The two ways to show the product list.
enum ListView: String, Sendable {
    case list, grid
}

/// Percent-encoding for query values (kept for the pages that build links by hand).
enum ListLinks {
    static func encode(_ text: String) -> String { CatalogQuery.encode(text) }
}

/// Numbered page links: the first, the last, and two on each side of the current page, with
/// gaps ("…") where pages are skipped — so the neighbouring pages and both ends are always one
/// click away.
enum Pagination {
    /// Page numbers come from the API too (`page_no`, `last_page`): beyond this they are clamped,
    /// so the arithmetic around them (`current + 2`) cannot overflow.
    static let maxPage = 1_000_000

    static func numbers(current: Int, last: Int) -> [Int?] {
        let last = min(last, maxPage), current = min(max(current, 1), maxPage)
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

    static func templateValue(current: Int, last: Int, hasPrev: Bool, hasNext: Bool, query: CatalogQuery) -> TemplateValue {
        let last = min(last, maxPage), current = min(max(current, 1), maxPage)
        guard last > 1 || hasPrev || hasNext else { return .null }
        let pages: [TemplateValue] = numbers(current: current, last: max(last, current)).map { number in
            guard let number else { return .object(["gap": true]) }
            return .object(["gap": false, "number": .int(number), "url": .string(query.url(page: number)),
                            "current": .bool(number == current)])
        }
        return .object([
            "prev": hasPrev ? .object(["url": .string(query.url(page: current - 1))]) : .null,
            "next": hasNext ? .object(["url": .string(query.url(page: current + 1))]) : .null,
            "pages": .list(pages),
        ])
    }
}

extension CatalogController {
    static let newestSeenCookie = "om_newest_seen"

    /// `GET /products?page=N&view=list|grid&q=TEXT&sort=…&show=…&stock=…&discounted=1&currency=…&per_page=…`
    ///
    /// The plain newest-first list comes live from the API (it can give exactly that); every
    /// other view — sorted, filtered, searched — is built from the local catalog copy.
    /// With a `refusal`, the list is a refused bulk request shown again (422): the same boxes
    /// ticked, the action and values kept, the reason as an alert.
    func listPage(_ request: HTTPRequest, refusal: BulkRefusal? = nil) async throws -> HTTPResponse {
        let chosenView = request.query["view"].flatMap(ListView.init(rawValue:))
        let rememberedView = request.cookies[Self.viewCookie].flatMap(ListView.init(rawValue:)) ?? .list
        var query = CatalogQuery({ request.query[$0] }, defaultView: rememberedView)
        var visit = await visit(request, create: false)
        let l = visit.localizer
        let ownVendor = await vendor.id

        var context: [String: TemplateValue]
        var newestKnown: Int?
        if query.isPlainNewestFirst {
            let listing: ProductListPage
            do {
                listing = try await client.listProducts(page: query.page, itemsPerPage: query.perPage)
            } catch {
                throw PageFailure(error, retryURL: query.url())
            }
            await catalog.touch()
            let products = listing.pages.map { presenter.listItem($0, ownVendorID: ownVendor, l) }
            context = listContext(query, products: products, target: request.target, l)
            context["total_text"] = .string(Self.totalText(count: listing.totalCount, page: listing.pageNo,
                                                           lastPage: listing.lastPage, query: query, l))
            context["pagination"] = products.isEmpty ? .null : Pagination.templateValue(
                current: listing.pageNo, last: listing.lastPage, hasPrev: listing.hasPrev,
                hasNext: listing.hasNext, query: query)
            context["empty"] = products.isEmpty && listing.unreadable.isEmpty ? Self.emptyState(query, l) : .null
            context["unreadable"] = UnreadableProducts.templateValue(listing.unreadable, l)
            context["copy"] = .null
            newestKnown = [catalog.copy.snapshot().newestID, query.page == 1 ? listing.pages.first?.id : nil]
                .compactMap { $0 }.max()
        } else {
            await catalog.ensureFresh(maxAge: configuration.catalogMaxAge)
            let status = await catalog.status
            guard status.syncedAt != nil else {
                if let error = status.error { throw PageFailure(error, retryURL: query.url()) }
                throw PageFailure(status: 502, heading: "catalog_unavailable_heading",
                                  message: "catalog_unavailable_message", retryURL: query.url())
            }
            let snapshot = catalog.copy.snapshot()
            let result = snapshot.page(query, ownVendorID: ownVendor)
            query.page = result.pageNo
            let products = result.products.map { presenter.listItem($0.listItem, ownVendorID: ownVendor, l) }
            context = listContext(query, products: products, target: request.target, l)
            context["total_text"] = .string(Self.totalText(count: result.totalCount, page: result.pageNo,
                                                           lastPage: result.lastPage, query: query, l))
            context["pagination"] = products.isEmpty ? .null : Pagination.templateValue(
                current: result.pageNo, last: result.lastPage, hasPrev: result.pageNo > 1,
                hasNext: result.pageNo < result.lastPage, query: query)
            let unreadable = result.pageNo == 1 ? snapshot.unreadable : []
            context["empty"] = products.isEmpty && unreadable.isEmpty ? Self.emptyState(query, l, searchOnlyCount: {
                var searchOnly = query.cleared
                searchOnly.search = query.search
                return snapshot.page(searchOnly, ownVendorID: ownVendor).totalCount
            }) : .null
            context["unreadable"] = UnreadableProducts.templateValue(unreadable, l)
            context["copy"] = copyStatusValue(status, l)
            newestKnown = snapshot.newestID
        }

        // Bulk actions: a checkbox on each of the vendor's own products, for people who may write.
        let selectable = Self.selectableIDs(context["products"], ownVendorID: ownVendor)
        if !selectable.isEmpty, visit.session?.role.canWrite ?? true {
            if visit.session?.csrfToken.isEmpty ?? true {
                let created = await self.visit(request, create: true, takeFlash: false)
                visit.session = created.session
                visit.cookies += created.cookies
            }
            context["products"] = Self.markSelectable(context["products"], selectable, refusal, l)
            var bulk: [String: TemplateValue] = [
                "csrf_token": .string(visit.session?.csrfToken ?? ""),
                "back": .string(BackLink.validated(request.target) ?? query.url()),
                "page_ids": .list(selectable.map { .object(["id": .int($0)]) }),
            ]
            bulk.merge(BulkFormState.templateFields(refusal, l, offersSales: salesAvailable)) { _, new in new }
            context["bulk"] = .object(bulk)
        } else {
            context["bulk"] = .null
        }
        await addSaleMarks(to: &context, l)

        // New products since this browser last saw the newest ones: a notice (without JS, this
        // is how it appears; with JS the page also polls /products/newest.json).
        let seen = request.cookies[Self.newestSeenCookie].flatMap(Int.init)
        context["newest_id"] = .int(newestKnown ?? 0)
        context["newest_url"] = .string(Self.newestURL(query))
        context["new_products"] = seen.map { seen in (newestKnown ?? 0) > seen } == true
            ? .object(["url": .string(Self.newestURL(query))]) : .null

        context["chips"] = FilterChips.templateValue(query, l)
        let activeFilters = FilterChips.filterCount(query)
        context["filters_summary"] = .string(activeFilters > 0
            ? l("look_filters_summary_active", ["count": l.number(activeFilters)]) : l("look_filters_summary"))
        context["bulk_refusal"] = refusal.map { .object(["message": .string($0.message)]) } ?? .null
        var response = try page("products", title: query.search.isEmpty ? l("list_heading") : l("list_search_title", ["query": query.search]),
                                context: context, visit: visit, section: .products, status: refusal == nil ? 200 : 422)
        if let chosenView, chosenView.rawValue != request.cookies[Self.viewCookie] {
            response.setCookie(SetCookie(name: Self.viewCookie, value: chosenView.rawValue, maxAge: 365 * 24 * 3600))
        }
        // The newest products count as seen once the page that shows them first was shown.
        if let newestKnown, seen == nil || (query.isPlainNewestFirst && query.page == 1 && newestKnown != seen) {
            response.setCookie(SetCookie(name: Self.newestSeenCookie, value: String(newestKnown), maxAge: 365 * 24 * 3600))
        }
        return response
    }

    /// The ids of the listed products that belong to this panel's vendor.
    static func selectableIDs(_ products: TemplateValue?, ownVendorID: Int?) -> [Int] {
        guard let ownVendorID, case .list(let items)? = products else { return [] }
        return items.compactMap { item in
            guard case .object(let fields) = item, case .int(let id)? = fields["id"],
                  case .int(let vendor)? = fields["vendor_id"], vendor == ownVendorID else { return nil }
            return id
        }
    }

    static func markSelectable(_ products: TemplateValue?, _ ids: [Int], _ refusal: BulkRefusal? = nil, _ l: Localizer) -> TemplateValue {
        guard case .list(let items)? = products else { return .list([]) }
        let chosen = Set(ids)
        return .list(items.map { item in
            guard case .object(var fields) = item, case .int(let id)? = fields["id"], chosen.contains(id) else { return item }
            var name = ""
            if case .string(let text)? = fields["name"] { name = text }
            fields["selectable"] = .object(["select_label": .string(l("bulk_select_product", ["name": name])),
                                            "checked": .bool(refusal?.isTicked(id) ?? false)])
            return .object(fields)
        })
    }

    /// Where the new-products notice leads: the newest first, in the same view.
    static func newestURL(_ query: CatalogQuery) -> String {
        var newest = CatalogQuery()
        newest.view = query.view
        newest.perPage = query.perPage
        return newest.url(page: 1)
    }

    /// What every list page shows besides its counts: the products, the view switch and the
    /// controls of the search form.
    func listContext(_ query: CatalogQuery, products: [TemplateValue], target: String, _ l: Localizer) -> [String: TemplateValue] {
        // "Back" returns to this very URL (as the browser asked for it) when it is a valid list
        // URL, else to the same view spelled canonically.
        let here = BackLink.validated(target) ?? query.url()
        let linked: [TemplateValue] = products.map { item in
            guard case .object(var fields) = item, case .int(let id)? = fields["id"] else { return item }
            fields["href"] = .string(BackLink.link("/products/\(id)", back: here))
            return .object(fields)
        }
        return [
            "view": .string(query.view.rawValue),
            "is_list": .bool(query.view == .list),
            "is_grid": .bool(query.view == .grid),
            "list_url": .string(query.url(view: .list)),
            "grid_url": .string(query.url(view: .grid)),
            "q": .string(query.search),
            "clear_search": query.isFiltered ? .object(["url": .string(query.cleared.url(page: 1))]) : .null,
            "has_products": .bool(!products.isEmpty),
            "products": .list(linked),
            "here": .string(here),
            "export_url": .string(query.exportURL),
            "sort_options": .list(CatalogSort.allCases.map { sort in
                .object(["value": .string(sort.rawValue), "label": .string(l(Self.sortKey(sort))), "selected": .bool(sort == query.sort)])
            }),
            "per_page_options": .list(CatalogQuery.pageSizes.map { size in
                .object(["value": .int(size), "selected": .bool(size == query.perPage)])
            }),
            "show_options": .list(OwnerFilter.allCases.map { option in
                .object(["value": .string(option.rawValue), "label": .string(l(option == .all ? "catalog_show_all" : "catalog_show_mine")),
                         "checked": .bool(option == query.show)])
            }),
            "stock_options": .list(StockFilter.allCases.map { option in
                .object(["value": .string(option.rawValue), "label": .string(l(Self.stockKey(option))),
                         "checked": .bool(option == query.stock)])
            }),
            "currency_options": .list(([nil] + Currency.allCases.map { Optional($0) }).map { currency in
                .object(["value": .string(currency?.rawValue ?? ""), "label": .string(currency?.rawValue ?? l("catalog_currency_any")),
                         "checked": .bool(currency == query.currency)])
            }),
            "discounted_checked": .bool(query.discountedOnly),
        ]
    }

    static func sortKey(_ sort: CatalogSort) -> String {
        switch sort {
        case .newest: "catalog_sort_newest"
        case .oldest: "catalog_sort_oldest"
        case .price: "catalog_sort_price"
        case .priceDescending: "catalog_sort_price_desc"
        case .stock: "catalog_sort_stock"
        case .stockDescending: "catalog_sort_stock_desc"
        case .name: "catalog_sort_name"
        case .updated: "catalog_sort_updated"
        }
    }

    static func stockKey(_ filter: StockFilter) -> String {
        switch filter {
        case .any: "catalog_stock_any"
        case .inStock: "catalog_stock_in"
        case .soldOut: "catalog_stock_sold_out"
        }
    }

    /// "How old is this copy" for a page built from it, with a warning when syncing fails.
    func copyStatusValue(_ status: CatalogSync.Status, _ l: Localizer) -> TemplateValue {
        let now = configuration.now()
        let age = status.syncedAt.map { max(0, WholeNumber.clamped(now.timeIntervalSince($0), rounding: .down)) } ?? 0
        let ageText = Self.ageText(age, l)
        var fields: [String: TemplateValue] = [
            "age_seconds": .int(age),
            "age_text": .string(l("catalog_copy_age", ["age": ageText])),
        ]
        if let failure = status.failure {
            var arguments = ["failure": l(failure), "age": ageText]
            let retry = status.retryAt.map { max(1, WholeNumber.clamped($0.timeIntervalSince(now), rounding: .up)) }
            if let retry { arguments["seconds"] = l.number(retry) }
            fields["warning"] = .object(["message": .string(l(retry == nil ? "catalog_copy_warning" : "catalog_copy_warning_retry", arguments))])
        } else {
            fields["warning"] = .null
        }
        return .object(fields)
    }

    static func ageText(_ seconds: Int, _ l: Localizer) -> String {
        switch seconds {
        case ..<5: l("catalog_age_now")
        case ..<60: l("catalog_age_seconds", ["count": l.number(seconds)])
        case ..<3600: l("catalog_age_minutes", ["count": l.number(seconds / 60)])
        default: l("catalog_age_hours", ["count": l.number(seconds / 3600)])
        }
    }

    static func totalText(count: Int, page: Int, lastPage: Int, query: CatalogQuery, _ l: Localizer) -> String {
        let pages = count > 0 ? " · " + l("catalog_page_of", ["page": l.number(page), "last": l.number(max(1, lastPage))]) : ""
        if !query.search.isEmpty { return l.plural("list_total_search", count: count, ["query": query.search]) + pages }
        if query.isFiltered { return l.plural("catalog_total_filtered", count: count) + pages }
        guard count > 0 else { return "" }
        return l.plural("list_total", count: count, ["page": l.number(page), "last": l.number(max(1, lastPage))])
    }

    /// What emptied the result, and the link that undoes it. With both search words and filters,
    /// `searchOnlyCount` tells which one did: when the words alone find products, the filters hid them.
    static func emptyState(_ query: CatalogQuery, _ l: Localizer, searchOnlyCount: () -> Int = { 0 }) -> TemplateValue {
        if !query.search.isEmpty, FilterChips.filterCount(query) > 0 {
            var withoutFilters = query.cleared
            withoutFilters.search = query.search
            var withoutSearch = query
            withoutSearch.search = ""
            let found = searchOnlyCount()
            if found > 0 {
                return .object([
                    "title": .string(l.plural("look_empty_filters_hide_title", count: found, ["query": query.search])),
                    "message": .string(l("look_empty_filters_hide_message")),
                    "show_register": false,
                    "back": .object(["url": .string(withoutFilters.url(page: 1)), "label": .string(l("catalog_clear_filters"))]),
                ])
            }
            return .object([
                "title": .string(l("list_empty_search_title", ["query": query.search])),
                "message": .string(l("look_empty_search_with_filters_message")),
                "show_register": false,
                "back": .object(["url": .string(withoutSearch.url(page: 1)), "label": .string(l("look_clear_search"))]),
            ])
        }
        if !query.search.isEmpty {
            return .object([
                "title": .string(l("list_empty_search_title", ["query": query.search])),
                "message": .string(l("list_empty_search_message")),
                "show_register": false,
                "back": .object(["url": .string(query.cleared.url(page: 1)), "label": .string(l("list_show_all"))]),
            ])
        }
        if query.isFiltered {
            return .object([
                "title": .string(l("catalog_empty_filtered_title")),
                "message": .string(l("catalog_empty_filtered_message")),
                "show_register": false,
                "back": .object(["url": .string(query.cleared.url(page: 1)), "label": .string(l("catalog_clear_filters"))]),
            ])
        }
        if query.page > 1 {
            return .object([
                "title": .string(l("list_empty_page_title", ["page": l.number(query.page)])),
                "message": .string(l("list_empty_page_message")),
                "show_register": false,
                "back": .object(["url": .string(query.url(page: 1)), "label": .string(l("list_first_page"))]),
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
