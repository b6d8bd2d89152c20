import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

/// Scheduled discounts (design.md "Scheduled discounts"): `GET /sales`, `POST /products/{id}/sales`,
/// `POST /sales/{id}/cancel`, and the product page's `data-product-sales` section. Writes need an
/// editor (the role middleware refuses every other POST of a viewer). v2 dialects only: with v1
/// the panel would have to keep product passwords, so these routes explain that instead.
extension PanelApp {
    static func registerSalesRoutes(into routes: inout RouteTable) {
        routes.get("/sales", .viewer, page: { app, request in try await app.salesPage(request) })
        routes.post("/products/{id}/sales", .editor, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.scheduleSale(request) })
        routes.post("/sales/{id}/cancel", .editor, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.cancelSale(request) })
    }

    var salesAvailable: Bool { configuration.api.dialect != .v1 }

    static let salesUnavailable = PageFailure(status: 403, heading: "sales_heading", message: "sales_v1_unavailable")

    // MARK: GET /sales

    func salesPage(_ request: HTTPRequest) async throws -> HTTPResponse {
        let visit = await visit(request)
        let l = visit.localizer
        let text = SaleText(zone: configuration.timeZone, l: l)
        let product = request.query["product"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 > 0 ? $0 : nil }
        let state = request.query["state"].flatMap(Sale.State.init(rawValue:))
        let filtered = product != nil || state != nil
        var context: [String: TemplateValue] = [
            "intro": .string(l("sales_intro", ["zone": text.zoneName])),
            "product": .string(product.map(String.init) ?? ""),
            "states": .list(Sale.State.allCases.map { option in
                .object(["value": .string(option.rawValue), "label": .string(l(option.labelKey)),
                         "selected": .bool(option == state)])
            }),
            "clear": filtered ? .object(["url": .string("/sales")]) : .null,
        ]
        guard salesAvailable else {
            context["unavailable"] = .object(["text": .string(l("sales_v1_unavailable"))])
            context["sections"] = .list([])
            context["empty"] = .null
            return try page("sales", title: l("sales_heading"), context: context, visit: visit, section: .sales)
        }
        context["unavailable"] = .null
        let sales = try await self.sales.list(.init(productID: product, state: state))
        let here = request.target.utf8.count <= 1024 ? request.target : "/sales"
        let rows = try await saleRows(sales, text: text, visit: visit, back: here)
        let groups: [(key: String, title: String, states: Set<Sale.State>)] = [
            ("running", "sales_section_running", [.running]), ("upcoming", "sales_section_upcoming", [.scheduled]),
            ("past", "sales_section_past", [.ended, .cancelled, .failed]),
        ]
        context["sections"] = .list(groups.compactMap { group in
            let members = zip(sales, rows).filter { group.states.contains($0.0.state) }.map(\.1)
            if let state, !group.states.contains(state) { return nil }
            return .object(["key": .string(group.key), "title": .string(l(group.title)),
                            "rows": .list(members), "empty": .bool(members.isEmpty)])
        })
        context["empty"] = sales.isEmpty ? .object(["text": .string(l(filtered ? "sales_empty_filtered" : "sales_empty"))]) : .null
        return try page("sales", title: l("sales_heading"), context: context, visit: visit, section: .sales)
    }

    /// One template row per sale (`sale_row.html`), with a cancel form for people who may write.
    func saleRows(_ sales: [Sale], text: SaleText, visit: Visit, back: String) async throws -> [TemplateValue] {
        let l = text.l
        let tries = try await self.sales.tries(of: sales.map(\.id))
        let canWrite = visit.session?.role.canWrite ?? false
        let iso = ISO8601DateFormatter()
        return sales.map { sale in
            let saleTries = tries[sale.id] ?? []
            var note = sale.note.map { text.note($0, currency: sale.currency) }
            if sale.state.isFinal == false, sale.attempts > 0, let next = sale.nextTryAt {
                note = [note, l("sales_next_try", ["time": text.time(next)])].compactMap { $0 }.joined(separator: " ")
            }
            return .object([
                "id": .int(sale.id),
                "state": .string(sale.state.rawValue),
                "state_label": .string(l(sale.state.labelKey)),
                "product_id": .int(sale.productID),
                "product_name": .string(sale.productName),
                "product_url": .string("/products/\(sale.productID)"),
                "discount": .string(text.discount(sale)),
                "period": .string(text.period(sale.start, sale.end)),
                "start_iso": .string(iso.string(from: sale.start)),
                "end_iso": .string(iso.string(from: sale.end)),
                "length": .string(l("sales_length", ["length": text.length(sale.start, sale.end)])),
                "set_by": .string(l("sales_set_by", ["person": sale.createdBy, "time": text.time(sale.createdAt)])),
                "note": note.map { .object(["text": .string($0)]) } ?? .null,
                "has_tries": .bool(!saleTries.isEmpty),
                "tries_count": .int(sale.attempts),
                "tries": .list(saleTries.map { attempt in
                    .object(["text": .string(l("sales_try", ["time": text.time(attempt.at), "step": l(attempt.step.labelKey),
                                                             "reason": attempt.failure]))])
                }),
                "cancel": canWrite && !sale.state.isFinal && salesAvailable
                    ? .object(["id": .int(sale.id), "csrf_token": .string(visit.session?.csrfToken ?? ""), "back": .string(back),
                               "label": .string(l("sales_cancel_label", ["id": String(sale.id)]))])
                    : .null,
            ])
        }
    }

    // MARK: the product page

    /// The detail page's `data-product-sales` section: the product's sales and, for people who
    /// may change it, the form (kept values and errors after a refused submission).
    func productSalesSection(_ product: ProductDetail, canManage: Bool, visit: Visit, form: SaleFormState?) async -> TemplateValue {
        let l = visit.localizer
        let text = SaleText(zone: configuration.timeZone, l: l)
        guard salesAvailable else {
            return .object(["unavailable": .object(["text": .string(l("sales_v1_unavailable"))]), "rows": .list([]),
                            "empty": false, "form": .null, "all_url": .string("/sales")])
        }
        let list = (try? await sales.list(.init(productID: product.id), limit: 50)) ?? []
        let rows = (try? await saleRows(list, text: text, visit: visit, back: "/products/\(product.id)")) ?? []
        var formValue: TemplateValue = .null
        if canManage, visit.session?.role.canWrite ?? false {
            let values = form?.values ?? SaleForm()
            let errors = form?.errors ?? []
            func error(_ field: String) -> TemplateValue {
                errors.first { $0.field == field }.map { .object(["message": .string($0.message)]) } ?? .null
            }
            formValue = .object([
                "action": .string("/products/\(product.id)/sales"),
                "csrf_token": .string(visit.session?.csrfToken ?? ""),
                "sale_discount": .string(values.discount),
                "sale_start": .string(values.start),
                "sale_end": .string(values.end),
                "discount_hint": .string(l("sales_form_discount_hint",
                                           ["example": product.currency == .KRW ? "3,000" : "2.50"])),
                "time_hint": .string(l("sales_form_time_hint", ["zone": text.zoneName])),
                "sale_discount_error": error("sale_discount"),
                "sale_start_error": error("sale_start"),
                "sale_end_error": error("sale_end"),
                "summary": errors.isEmpty ? .null : .object([
                    "heading": .string(l("sales_form_errors", ["count": l.number(errors.count)])),
                    "items": .list(errors.map { .object(["field_id": .string($0.field), "message": .string($0.message)]) }),
                ]),
            ])
        }
        return .object(["unavailable": .null, "rows": .list(rows), "empty": .bool(rows.isEmpty), "form": formValue,
                        "all_url": .string("/sales?product=\(product.id)")])
    }

    // MARK: POST /products/{id}/sales

    func scheduleSale(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try Self.productID(request)
        let form = try await request.urlencodedForm(limits: FormLimits(maxFields: 16, maxFieldBytes: 1024))
        let session = try await requireCSRF(request, formToken: form["csrf_token"])
        guard session.role.canWrite else { throw PageFailure.forbidden("failure_viewer_read_only") }
        guard salesAvailable else { throw Self.salesUnavailable }
        let l = localizer(for: request)
        let product: ProductDetail
        do {
            product = try await client.product(id: id)
        } catch {
            throw PageFailure(error, retryURL: nil)
        }
        guard await vendor.mayManage(productVendorID: product.vendorID) else {
            throw PageFailure(status: 403, heading: "failure_not_yours_heading", message: "failure_not_yours_message")
        }
        let values = SaleForm { form[$0] }
        let text = SaleText(zone: configuration.timeZone, l: l)
        switch await createSale(values, for: CatalogProduct(product, seenAt: configuration.now()), by: session.person) {
        case .success(let sale):
            await saleScheduler.wake()
            let flash = l("sales_flash_scheduled", ["discount": text.discount(sale), "period": text.period(sale.start, sale.end)])
            return await redirect(to: "/products/\(id)", flash: flash, session: session)
        case .failure(let refusal):
            return try await detailPage(request, saleForm: SaleFormState(values: values, errors: refusal.messages(text)))
        }
    }

    /// Why a sale was not stored: the broken rules, and the sale it would overlap.
    struct SaleRefusal: Error {
        var issues: [FieldIssue]
        var currency: Currency
        var overlapping: Sale?

        /// The errors by field in `text`'s language.
        func messages(_ text: SaleText) -> [(field: String, message: String)] {
            issues.map { issue in
                let extra = overlapping.map { ["period": text.period($0.start, $0.end)] } ?? [:]
                return (issue.field, text.issue(issue, currency: currency, extra: extra))
            }
        }
    }

    /// Checks and stores one product's sale.
    func createSale(_ values: SaleForm, for product: CatalogProduct, by person: String) async -> Result<Sale, SaleRefusal> {
        let now = configuration.now()
        switch values.check(price: product.price, currency: product.currency, zone: configuration.timeZone, now: now) {
        case .refused(let issues):
            return .failure(SaleRefusal(issues: issues, currency: product.currency))
        case .accepted(let checked):
            let new = SaleStore.NewSale(productID: product.id, productName: product.name, currency: product.currency,
                                        discount: checked.discount, start: checked.start, end: checked.end,
                                        createdBy: person, createdAt: now)
            do {
                switch try await sales.create(new) {
                case .created(let saleID):
                    guard let sale = try await sales.sale(saleID) else { throw PageFailure.notFound() }
                    return .success(sale)
                case .overlaps(let other):
                    return .failure(SaleRefusal(issues: [SaleRules.overlapIssue(with: other.period, saleID: other.id)],
                                                currency: product.currency, overlapping: other))
                }
            } catch {
                return .failure(SaleRefusal(issues: [FieldIssue(field: "sale_start", message: "The sale could not be stored.",
                                                                code: "sale_not_stored")], currency: product.currency))
            }
        }
    }

    // MARK: POST /sales/{id}/cancel

    func cancelSale(_ request: HTTPRequest) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm(limits: FormLimits(maxFields: 8, maxFieldBytes: 2048))
        let session = try await requireCSRF(request, formToken: form["csrf_token"])
        guard session.role.canWrite else { throw PageFailure.forbidden("failure_viewer_read_only") }
        guard salesAvailable else { throw Self.salesUnavailable }
        guard let id = request.pathParameters["id"].flatMap(Int.init), id > 0 else { throw PageFailure.notFound("sales_not_found") }
        let l = localizer(for: request)
        let back = Self.salesBack(form["back"])
        let key: String
        switch await saleScheduler.cancel(id, person: session.person, address: request.remoteAddress) {
        case .notFound: throw PageFailure.notFound("sales_not_found")
        case .cancelled: key = "sales_flash_cancelled"
        case .pending: key = "sales_flash_cancel_pending"
        case .alreadyOver: key = "sales_flash_already_over"
        }
        return await redirect(to: back, flash: l(key), session: session)
    }

    /// Where a cancel returns: the sales list (with its filters) or a product page; nothing else.
    static func salesBack(_ value: String?) -> String {
        guard let value, value.utf8.count <= 1024,
              value == "/sales" || value.hasPrefix("/sales?") || value.hasPrefix("/products/"),
              !value.hasPrefix("//"),
              value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) else { return "/sales" }
        return value
    }
}
