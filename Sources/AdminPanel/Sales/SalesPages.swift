import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

/// Scheduled discounts: `GET /sales`, `POST /products/{id}/sales`,
/// `POST /sales/{id}/cancel`, and the product page's `data-product-sales` section. Writes need an
/// editor (the role middleware refuses every other POST of a viewer). v2 dialects only: with v1
/// the panel would have to keep product passwords, so these routes explain that instead.
/// `/sales` (scheduled discounts), `POST /products/{id}/sales`, `POST /sales/{id}/cancel` and
/// `POST /sales/runs/{run}/cancel` (`SaleRunCancel.swift`).
struct SalesController: Sendable {
    let pages: Pages
    let upstream: Upstream
    let saleScheduler: SaleScheduler
    let activity: ActivityLog
    /// The product page, shown again with a refused sale form (`ProductController.detailPage`).
    let detailPage: @Sendable (HTTPRequest, PanelContext, SaleFormState?) async throws -> HTTPResponse
    let saleSections: SaleSections

    // MARK: GET /sales

    func salesPage(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let context = context.withFormKey()
        let l = context.localizer
        let text = SaleText(zone: pages.configuration.timeZone, l: l)
        let product = request.query["product"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 > 0 ? $0 : nil }
        let state = request.query["state"].flatMap(Sale.State.init(rawValue:))
        let run = request.query["run"].flatMap { BulkRuns.isValid($0) ? $0 : nil }
        let filtered = product != nil || state != nil || run != nil
        var view = SalesPageView(intro: l("sales_intro", ["zone": text.zoneName]))
        view.product = product.map(String.init) ?? ""
        view.run = run ?? ""
        view.states = Sale.State.allCases.map { ListOptionView(value: $0.rawValue, label: l($0.labelKey), chosen: $0 == state) }
        view.clear = filtered ? LinkView(url: "/sales") : nil
        guard saleSections.salesAvailable else {
            view.unavailable = TextView(text: l("sales_v1_unavailable"))
            return try pages.page(view, title: l("sales_heading"), context: context, section: .sales)
        }
        let sales = try await saleSections.sales.list(.init(productID: product, state: state, runID: run))
        let here = request.target.utf8.count <= 1024 ? request.target : "/sales"
        let runs: [SaleRuns.Summary]
        if let run {
            runs = Array(try await saleSections.sales.runSummaries([run]).values)
        } else {
            runs = try await saleSections.sales.openRuns()
        }
        view.runs = runs.map {
            SaleRunView($0, text: text, canWrite: context.role.canWrite, csrfToken: context.csrfToken,
                        back: here)
        }
        var rows = try await saleSections.saleRows(sales, text: text, context: context, back: here)
        // On a run's own page each row's link to that page would lead nowhere new.
        if run != nil { for index in rows.indices { rows[index].runURL = nil } }
        let groups: [(key: String, title: String, states: Set<Sale.State>)] = [
            ("running", "sales_section_running", [.running]), ("upcoming", "sales_section_upcoming", [.scheduled]),
            ("past", "sales_section_past", [.ended, .cancelled, .failed]),
        ]
        view.sections = groups.compactMap { group in
            if let state, !group.states.contains(state) { return nil }
            let members = zip(sales, rows).filter { group.states.contains($0.0.state) }.map(\.1)
            return SalesSectionView(key: group.key, title: l(group.title), rows: members)
        }
        view.empty = sales.isEmpty ? TextView(text: l(filtered ? "sales_empty_filtered" : "sales_empty")) : nil
        return try pages.page(view, title: l("sales_heading"), context: context, section: .sales)
    }

    // MARK: the product page

    // MARK: POST /products/{id}/sales

    func scheduleSale(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let id = try Pages.productID(request)
        let form = try await request.urlencodedForm(limits: FormLimits(maxFields: 16, maxFieldBytes: 1024))
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        guard saleSections.salesAvailable else { throw SaleSections.salesUnavailable }
        let l = context.localizer
        let product: ProductDetail
        do {
            product = try await upstream.client.product(id: id)
        } catch {
            throw PageFailure(error, retryURL: nil)
        }
        guard await upstream.vendor.mayManage(productVendorID: product.vendorID) else {
            throw PageFailure(status: 403, heading: "failure_not_yours_heading", message: "failure_not_yours_message")
        }
        let values = SaleForm { form[$0] }
        let text = SaleText(zone: pages.configuration.timeZone, l: l)
        switch await saleSections.createSale(values, for: CatalogProduct(product, seenAt: pages.configuration.now()), by: context.person) {
        case .success(let sale):
            await saleSections.wakeScheduler()
            let flash = l("sales_flash_scheduled", ["discount": text.discount(sale), "period": text.period(sale.start, sale.end)])
            return pages.redirect(to: "/products/\(id)", flash: flash)
        case .failure(let refusal):
            return try await detailPage(request, context, SaleFormState(values: values, errors: refusal.messages(text)))
        }
    }

    // MARK: POST /sales/{id}/cancel

    func cancelSale(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm(limits: FormLimits(maxFields: 8, maxFieldBytes: 2048))
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        guard saleSections.salesAvailable else { throw SaleSections.salesUnavailable }
        guard let id = request.pathParameters["id"].flatMap(Int.init), id > 0 else { throw PageFailure.notFound("sales_not_found") }
        let l = context.localizer
        let back = Self.salesBack(form["back"])
        let key: String
        switch await saleScheduler.cancel(id, person: context.person, address: request.remoteAddress) {
        case .notFound: throw PageFailure.notFound("sales_not_found")
        case .cancelled: key = "sales_flash_cancelled"
        case .pending: key = "sales_flash_cancel_pending"
        case .alreadyOver: key = "sales_flash_already_over"
        }
        return pages.redirect(to: back, flash: l(key))
    }

    /// Where a cancel returns: the sales list (with its filters) or a product page; nothing else.
    static func salesBack(_ value: String?) -> String {
        guard let value, value.utf8.count <= 1024,
              value == "/sales" || value.hasPrefix("/sales?") || value.hasPrefix("/products/"),
              !value.hasPrefix("//"),
              value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) else { return "/sales" }
        return value
    }

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/sales", .viewer, page: \.controllers.salesController) { try await $0.salesPage($1, $2) }
        routes.post("/products/{id}/sales", .editor, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.salesController) { try await $0.scheduleSale($1, $2) }
        routes.post("/sales/{id}/cancel", .editor, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.salesController) { try await $0.cancelSale($1, $2) }
        routes.post("/sales/runs/{run}/cancel", .editor, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.salesController) { try await $0.cancelRun($1, $2) }
    }
}
