import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

extension SheetController {
    /// `GET /products/sheet?…` with the list's query (search, filters, sort, page, `per_page` up
    /// to 200): the products from the local catalog copy, as the list's sorted and filtered views.
    func sheetPage(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let query = Self.query { request.query[$0] }
        let context = context.withFormKey()
        return try await renderSheet(query, context: context, state: SheetState(), status: 200)
    }

    /// The sheet of `query`, with what a save brought back (`state`) laid over the products.
    func renderSheet(_ query: CatalogQuery, context: PanelContext, state: SheetState, status: Int) async throws -> HTTPResponse {
        let l = context.localizer
        var view = SheetPageView()
        view.backURL = Self.listURL(query)
        let title = l("sheet_heading")
        guard upstream.dialect.hasVendor else {
            view.unavailable = TextView(text: l("sheet_v1_unavailable"))
            return try pages.page(view, title: title, context: context, section: .products, status: status)
        }
        await upstream.catalogService.ensureFresh()
        let status0 = await upstream.catalogService.status
        guard status0.syncedAt != nil else {
            if let error = status0.error { throw PageFailure(error, retryURL: Self.url(query)) }
            throw PageFailure(status: 502, heading: "catalog_unavailable_heading",
                              message: "catalog_unavailable_message", retryURL: Self.url(query))
        }
        let ownVendor = await upstream.vendor.id
        let result = upstream.catalogService.copy.snapshot().page(query, ownVendorID: ownVendor)
        var shown = query
        shown.page = result.pageNo
        let canWrite = context.role.canWrite
        let labels = SheetField.allCases.map { l(Self.labelKey($0)) }

        var rows: [SheetRowView] = []
        rows.reserveCapacity(result.products.count)
        var listed = Set<Int>()
        for product in result.products {
            listed.insert(product.id)
            let editable = canWrite && ownVendor != nil && product.vendorID == ownVendor
            rows.append(row(product, editable: editable, labels: labels, state: state, l))
        }
        // A posted product no longer in this view (deleted meanwhile, or moved by the save's own
        // change under this sort) still shows, with what was typed and why it was not saved.
        for id in state.rowOrder where !listed.contains(id) && state.failures[id] != nil {
            listed.insert(id)
            rows.append(orphanRow(id, labels: labels, state: state))
        }

        view.rows = rows
        view.editable = rows.contains { $0.cells.contains(where: \.editable) }
        view.csrfToken = view.editable ? context.csrfToken : ""
        view.query = CatalogQuery.encoded(shown.items().filter { $0.0 != "view" })
        view.totalText = CatalogController.totalText(count: result.totalCount, page: result.pageNo,
                                                     lastPage: result.lastPage, query: shown, l)
        view.pagination = Self.pagination(shown, last: result.lastPage)
        view.perPageLinks = Self.pageSizes.map { size in
            var sized = shown
            sized.perPage = size
            return PerPageLinkView(url: Self.url(sized, page: 1), size: size, current: size == shown.perPage)
        }
        view.empty = rows.isEmpty ? TextView(text: l(query.isFiltered ? "sheet_empty_filtered" : "sheet_empty")) : nil
        view.outcome = state.outcome
        view.problems = state.problems
        return try pages.page(view, title: title, context: context, section: .products, status: status)
    }

    /// One product's row: inputs for an editable one (typed values and errors laid over), text otherwise.
    private func row(_ product: CatalogProduct, editable: Bool, labels: [String], state: SheetState, _ l: Localizer) -> SheetRowView {
        let unit = product.currency == .KRW ? "₩" : "$"
        var cells: [SheetCellView] = []
        cells.reserveCapacity(4)
        for (index, field) in SheetField.allCases.enumerated() {
            guard editable else {
                let text: String
                switch field {
                case .name: text = DisplayBounds.name(product.name)
                case .price: text = Money.format(product.price, product.currency)
                case .discountedPrice: text = Money.format(product.discountedPrice, product.currency)
                case .stock: text = l.number(product.stock)
                }
                cells.append(SheetCellView(id: product.id, field: field.rawValue, label: labels[index], editable: false, value: text))
                continue
            }
            let loaded: String
            switch field {
            case .name: loaded = DisplayBounds.name(product.name)
            case .price: loaded = Money.inputValue(product.price)
            case .discountedPrice: loaded = Money.inputValue(product.discountedPrice)
            case .stock: loaded = String(product.stock)
            }
            var cell = SheetCellView(id: product.id, field: field.rawValue, label: labels[index], editable: true,
                                     value: loaded, was: loaded, unit: field == .price || field == .discountedPrice ? unit : nil)
            // A plain GET has nothing to lay over: no lookups, no parsing (a 200-row sheet has 800 cells).
            if state.isPosted {
                let key = SheetState.Cell(id: product.id, field: field)
                cell.value = state.typed[key] ?? loaded
                cell.was = state.was[key] ?? loaded
                cell.changed = cell.value != cell.was && !SheetRowInput.same(field, cell.value, cell.was)
                cell.saved = state.saved.contains(key)
                cell.error = state.errors[key]
                cell.conflict = state.conflicts[key]
                cell.rowFailure = index == 0 ? state.failures[product.id] : nil
            }
            cells.append(cell)
        }
        return SheetRowView(id: product.id, cells: cells, failure: state.isPosted ? state.failures[product.id] : nil)
    }

    /// A posted product the copy no longer lists: what was typed, read-only, and the failure.
    private func orphanRow(_ id: Int, labels: [String], state: SheetState) -> SheetRowView {
        let cells = SheetField.allCases.enumerated().map { index, field in
            let key = SheetState.Cell(id: id, field: field)
            return SheetCellView(id: id, field: field.rawValue, label: labels[index], editable: false,
                                 value: state.typed[key] ?? state.was[key] ?? (field == .name ? "#\(id)" : ""),
                                 rowFailure: index == 0 ? state.failures[id] : nil)
        }
        return SheetRowView(id: id, cells: cells, failure: state.failures[id])
    }

    static func labelKey(_ field: SheetField) -> String {
        "sheet_column_" + field.rawValue
    }

    static func pagination(_ query: CatalogQuery, last: Int) -> PaginationView? {
        let current = query.page
        guard last > 1 else { return nil }
        let pages: [PageNumberView] = Pagination.numbers(current: current, last: last).map { number in
            guard let number else { return PageNumberView(gap: true) }
            return PageNumberView(gap: false, number: number, url: url(query, page: number), current: number == current)
        }
        return PaginationView(previous: current > 1 ? LinkView(url: url(query, page: current - 1)) : nil,
                              next: current < last ? LinkView(url: url(query, page: current + 1)) : nil, pages: pages)
    }
}
