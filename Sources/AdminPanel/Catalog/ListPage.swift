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

    static func view(current: Int, last: Int, hasPrev: Bool, hasNext: Bool, query: CatalogQuery) -> PaginationView? {
        let last = min(last, maxPage), current = min(max(current, 1), maxPage)
        guard last > 1 || hasPrev || hasNext else { return nil }
        let pages: [PageNumberView] = numbers(current: current, last: max(last, current)).map { number in
            guard let number else { return PageNumberView(gap: true) }
            return PageNumberView(gap: false, number: number, url: query.url(page: number), current: number == current)
        }
        return PaginationView(previous: hasPrev ? LinkView(url: query.url(page: current - 1)) : nil,
                              next: hasNext ? LinkView(url: query.url(page: current + 1)) : nil, pages: pages)
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
    func listPage(_ request: HTTPRequest, _ context: PanelContext, refusal: BulkRefusal? = nil) async throws -> HTTPResponse {
        let chosenView = request.query["view"].flatMap(ListView.init(rawValue:))
        let rememberedView = request.cookies[Self.viewCookie].flatMap(ListView.init(rawValue:)) ?? .list
        var query = CatalogQuery({ request.query[$0] }, defaultView: rememberedView)
        var context = context
        let l = context.localizer
        let ownVendor = await upstream.vendor.id

        var view: ProductListView
        var newestKnown: Int?
        if query.isPlainNewestFirst {
            let listing: ProductListPage
            do {
                listing = try await upstream.client.listProducts(page: query.page, itemsPerPage: query.perPage)
            } catch {
                throw PageFailure(error, retryURL: query.url())
            }
            await upstream.catalogService.touch()
            let products = listing.pages.map { presenter.listRow($0, ownVendorID: ownVendor, l) }
            view = listView(query, products: products, target: request.target, l)
            view.totalText = Self.totalText(count: listing.totalCount, page: listing.pageNo,
                                            lastPage: listing.lastPage, query: query, l)
            view.pagination = products.isEmpty ? nil : Pagination.view(
                current: listing.pageNo, last: listing.lastPage, hasPrev: listing.hasPrev,
                hasNext: listing.hasNext, query: query)
            view.empty = products.isEmpty && listing.unreadable.isEmpty ? Self.emptyState(query, l) : nil
            view.unreadable = UnreadableProducts.view(listing.unreadable, l)
            newestKnown = [upstream.catalogService.copy.snapshot().newestID, query.page == 1 ? listing.pages.first?.id : nil]
                .compactMap { $0 }.max()
        } else {
            await upstream.catalogService.ensureFresh()
            let status = await upstream.catalogService.status
            guard status.syncedAt != nil else {
                if let error = status.error { throw PageFailure(error, retryURL: query.url()) }
                throw PageFailure(status: 502, heading: "catalog_unavailable_heading",
                                  message: "catalog_unavailable_message", retryURL: query.url())
            }
            let snapshot = upstream.catalogService.copy.snapshot()
            let result = snapshot.page(query, ownVendorID: ownVendor)
            query.page = result.pageNo
            let products = result.products.map { presenter.listRow($0.listItem, ownVendorID: ownVendor, l) }
            view = listView(query, products: products, target: request.target, l)
            view.totalText = Self.totalText(count: result.totalCount, page: result.pageNo,
                                            lastPage: result.lastPage, query: query, l)
            view.pagination = products.isEmpty ? nil : Pagination.view(
                current: result.pageNo, last: result.lastPage, hasPrev: result.pageNo > 1,
                hasNext: result.pageNo < result.lastPage, query: query)
            let unreadable = result.pageNo == 1 ? snapshot.unreadable : []
            view.empty = products.isEmpty && unreadable.isEmpty ? Self.emptyState(query, l, searchOnlyCount: {
                var searchOnly = query.cleared
                searchOnly.search = query.search
                return snapshot.page(searchOnly, ownVendorID: ownVendor).totalCount
            }) : nil
            view.unreadable = UnreadableProducts.view(unreadable, l)
            view.copy = copyStatusView(status, l)
            newestKnown = snapshot.newestID
        }

        // Bulk actions: a checkbox on each of the vendor's own products, for people who may write.
        let selectable = Self.selectableIDs(view.products, ownVendorID: ownVendor)
        if !selectable.isEmpty, context.role.canWrite {
            context = context.withFormKey()
            Self.markSelectable(&view.products, selectable, refusal, l)
            view.bulk = BulkFormState.view(refusal, l, offersSales: saleSections.salesAvailable,
                                           csrfToken: context.csrfToken,
                                           back: BackLink.validated(request.target) ?? query.url(), pageIDs: selectable)
        }
        // The view's file for editing, on every page of it: for people who may import it back.
        if context.role.canWrite { view.editExport = LinkView(url: query.editExportWorkbookURL) }
        await saleSections.addSaleMarks(to: &view, l)

        // New products since this browser last saw the newest ones: a notice (without JS, this
        // is how it appears; with JS the page also polls /products/newest.json).
        let seen = request.cookies[Self.newestSeenCookie].flatMap(Int.init)
        view.newestID = newestKnown ?? 0
        view.newestURL = Self.newestURL(query)
        view.newProducts = seen.map { seen in (newestKnown ?? 0) > seen } == true ? LinkView(url: Self.newestURL(query)) : nil

        view.chips = FilterChips.view(query, l)
        let activeFilters = FilterChips.filterCount(query)
        view.filtersSummary = activeFilters > 0
            ? l("look_filters_summary_active", ["count": l.number(activeFilters)]) : l("look_filters_summary")
        view.bulkRefusal = refusal.map { MessageView(message: $0.message) }
        var response = try pages.page(view, title: query.search.isEmpty ? l("list_heading") : l("list_search_title", ["query": query.search]),
                                context: context, section: .products, status: refusal == nil ? 200 : 422)
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
    static func selectableIDs(_ products: [ProductRowView], ownVendorID: Int?) -> [Int] {
        guard let ownVendorID else { return [] }
        return products.compactMap { $0.vendorID == ownVendorID ? $0.id : nil }
    }

    static func markSelectable(_ products: inout [ProductRowView], _ ids: [Int], _ refusal: BulkRefusal? = nil, _ l: Localizer) {
        let chosen = Set(ids)
        for index in products.indices where chosen.contains(products[index].id) {
            let row = products[index]
            products[index].selectable = SelectableMarkView(id: row.id, selectLabel: l("bulk_select_product", ["name": row.name]),
                                                            checked: refusal?.isTicked(row.id) ?? false)
        }
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
    func listView(_ query: CatalogQuery, products: [ProductRowView], target: String, _ l: Localizer) -> ProductListView {
        // "Back" returns to this very URL (as the browser asked for it) when it is a valid list
        // URL, else to the same view spelled canonically.
        let here = BackLink.validated(target) ?? query.url()
        var view = ProductListView(view: query.view)
        // As `BackLink.link` would write it for each row ("/products/ID" has no query yet).
        let backQuery = BackLink.parameter(here).map { "?" + $0 } ?? ""
        view.products = products.map { row in
            var row = row
            row.href = "/products/\(row.id)" + backQuery
            return row
        }
        view.listURL = query.url(view: .list)
        view.gridURL = query.url(view: .grid)
        view.search = query.search
        view.here = here
        view.exportURL = query.exportURL
        view.exportWorkbookURL = query.exportWorkbookURL
        view.sheetURL = SheetController.url(query)
        view.sortOptions = CatalogSort.allCases.map { sort in
            ListOptionView(value: sort.rawValue, label: l(Self.sortKey(sort)), chosen: sort == query.sort)
        }
        view.perPageOptions = CatalogQuery.pageSizes.map { size in
            ListOptionView(value: String(size), label: String(size), chosen: size == query.perPage)
        }
        view.showOptions = OwnerFilter.allCases.map { option in
            ListOptionView(value: option.rawValue, label: l(option == .all ? "catalog_show_all" : "catalog_show_mine"),
                           chosen: option == query.show)
        }
        view.stockOptions = StockFilter.allCases.map { option in
            ListOptionView(value: option.rawValue, label: l(Self.stockKey(option)), chosen: option == query.stock)
        }
        view.currencyOptions = ([nil] + Currency.allCases.map { Optional($0) }).map { currency in
            ListOptionView(value: currency?.rawValue ?? "", label: currency?.rawValue ?? l("catalog_currency_any"),
                           chosen: currency == query.currency)
        }
        view.discountedChecked = query.discountedOnly
        return view
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
    func copyStatusView(_ status: CatalogSync.Status, _ l: Localizer) -> CopyStatusView {
        let now = pages.configuration.now()
        let age = status.syncedAt.map { max(0, WholeNumber.clamped(now.timeIntervalSince($0), rounding: .down)) } ?? 0
        let ageText = Self.ageText(age, l)
        var view = CopyStatusView(ageSeconds: age, ageText: l("catalog_copy_age", ["age": ageText]), warning: nil)
        if let failure = status.failure {
            var arguments = ["failure": l(failure), "age": ageText]
            let retry = status.retryAt.map { max(1, WholeNumber.clamped($0.timeIntervalSince(now), rounding: .up)) }
            if let retry { arguments["seconds"] = l.number(retry) }
            view.warning = MessageView(message: l(retry == nil ? "catalog_copy_warning" : "catalog_copy_warning_retry", arguments))
        }
        return view
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
    static func emptyState(_ query: CatalogQuery, _ l: Localizer, searchOnlyCount: () -> Int = { 0 }) -> EmptyStateView {
        if !query.search.isEmpty, FilterChips.filterCount(query) > 0 {
            var withoutFilters = query.cleared
            withoutFilters.search = query.search
            var withoutSearch = query
            withoutSearch.search = ""
            let found = searchOnlyCount()
            if found > 0 {
                return EmptyStateView(title: l.plural("look_empty_filters_hide_title", count: found, ["query": query.search]), message: l("look_empty_filters_hide_message"), showRegister: false, back: LabelledLinkView(url: withoutFilters.url(page: 1), label: l("catalog_clear_filters")))
            }
            return EmptyStateView(title: l("list_empty_search_title", ["query": query.search]), message: l("look_empty_search_with_filters_message"), showRegister: false, back: LabelledLinkView(url: withoutSearch.url(page: 1), label: l("look_clear_search")))
        }
        if !query.search.isEmpty {
            return EmptyStateView(title: l("list_empty_search_title", ["query": query.search]), message: l("list_empty_search_message"), showRegister: false, back: LabelledLinkView(url: query.cleared.url(page: 1), label: l("list_show_all")))
        }
        if query.isFiltered {
            return EmptyStateView(title: l("catalog_empty_filtered_title"), message: l("catalog_empty_filtered_message"), showRegister: false, back: LabelledLinkView(url: query.cleared.url(page: 1), label: l("catalog_clear_filters")))
        }
        if query.page > 1 {
            return EmptyStateView(title: l("list_empty_page_title", ["page": l.number(query.page)]), message: l("list_empty_page_message"), showRegister: false, back: LabelledLinkView(url: query.url(page: 1), label: l("list_first_page")))
        }
        return EmptyStateView(title: l("list_empty_title"), message: l("list_empty_message"), showRegister: true, back: nil)
    }
}
