import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

/// The scheduled discounts as other pages show them: the product page's section, the list's marks, and
/// creating one (a product's form, a bulk action).
struct SaleSections: Sendable {
    let configuration: PanelConfiguration
    let sales: SaleStore
    let dialect: any PanelDialect
    /// Woken after sales are booked, so one starting now starts at once.
    let scheduler: SaleScheduler

    var salesAvailable: Bool { dialect.hasVendor }

    static let salesUnavailable = PageFailure(status: 403, heading: "sales_heading", message: "sales_v1_unavailable")

    /// One row view per sale (`sale_row.html`), with a cancel form for people who may write.
    func saleRows(_ sales: [Sale], text: SaleText, context: PanelContext, back: String) async throws -> [SaleRowView] {
        let l = text.l
        let tries = try await self.sales.tries(of: sales.map(\.id))
        let canWrite = context.role.canWrite
        let iso = ISO8601DateFormatter()
        return sales.map { sale in
            let saleTries = tries[sale.id] ?? []
            var note = sale.note.map { text.note($0, currency: sale.currency) }
            if sale.state.isFinal == false, sale.attempts > 0, let next = sale.nextTryAt {
                note = [note, l("sales_next_try", ["time": text.time(next)])].compactMap { $0 }.joined(separator: " ")
            }
            return SaleRowView(
                id: sale.id,
                state: sale.state.rawValue,
                stateLabel: l(sale.state.labelKey),
                productName: sale.productName,
                productURL: "/products/\(sale.productID)",
                discount: text.discount(sale),
                period: text.period(sale.start, sale.end),
                startISO: iso.string(from: sale.start),
                length: l("sales_length", ["length": text.length(sale.start, sale.end)]),
                setBy: l("sales_set_by", ["person": sale.createdBy, "time": text.time(sale.createdAt)]),
                note: note.map(TextView.init),
                triesCount: sale.attempts,
                tries: saleTries.map { attempt in
                    TextView(text: l("sales_try", ["time": text.time(attempt.at), "step": l(attempt.step.labelKey),
                                                   "reason": attempt.failure]))
                },
                cancel: canWrite && !sale.state.isFinal && salesAvailable
                    ? SaleCancelView(id: sale.id, csrfToken: context.csrfToken, back: back,
                                     label: l("sales_cancel_label", ["id": String(sale.id)]))
                    : nil,
                runURL: sale.runID.map { LinkView(url: "/sales?run=" + $0) })
        }
    }

    /// The detail page's `data-product-sales` section: the product's sales and, for people who
    /// may change it, the form (kept values and errors after a refused submission).
    func productSalesSection(_ product: ProductDetail, canManage: Bool, context: PanelContext, form: SaleFormState?) async -> ProductSalesView {
        let l = context.localizer
        let text = SaleText(zone: configuration.timeZone, l: l)
        guard salesAvailable else {
            return ProductSalesView(unavailable: TextView(text: l("sales_v1_unavailable")), allURL: "/sales")
        }
        let list = (try? await sales.list(.init(productID: product.id), limit: 50)) ?? []
        let rows = (try? await saleRows(list, text: text, context: context, back: "/products/\(product.id)")) ?? []
        var formView: SaleFormView?
        if canManage, context.role.canWrite {
            let values = form?.values ?? SaleForm()
            let errors = form?.errors ?? []
            func error(_ field: String) -> MessageView? {
                errors.first { $0.field == field }.map { MessageView(message: $0.message) }
            }
            formView = SaleFormView(
                action: "/products/\(product.id)/sales",
                csrfToken: context.csrfToken,
                discount: values.discount,
                start: SaleForm.minuteValue(values.start),
                end: SaleForm.minuteValue(values.end),
                discountHint: l("sales_form_discount_hint", ["example": product.currency == .KRW ? "3,000" : "2.50"]),
                timeHint: l("sales_form_time_hint", ["zone": text.zoneName]),
                discountError: error("sale_discount"),
                startError: error("sale_start"),
                endError: error("sale_end"),
                summary: errors.isEmpty ? nil : SaleErrorSummaryView(
                    heading: l("sales_form_errors", ["count": l.number(errors.count)]),
                    items: errors.map { SaleErrorItemView(fieldID: $0.field, message: $0.message) }))
        }
        return ProductSalesView(rows: rows, allURL: "/sales?product=\(product.id)", form: formView)
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

    /// Checks and stores one product's sale (`run`: the bulk run booking it). The caller wakes the
    /// scheduler once it has booked all it books (`wakeScheduler`).
    func createSale(_ values: SaleForm, for product: CatalogProduct, by person: String,
                    run: String? = nil) async -> Result<Sale, SaleRefusal> {
        let now = configuration.now()
        switch values.check(price: product.price, currency: product.currency, zone: configuration.timeZone, now: now) {
        case .refused(let issues):
            return .failure(SaleRefusal(issues: issues, currency: product.currency))
        case .accepted(let checked):
            let new = SaleStore.NewSale(productID: product.id, productName: product.name, currency: product.currency,
                                        discount: checked.discount, start: checked.start, end: checked.end,
                                        createdBy: person, createdAt: now, runID: run)
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

    /// The scheduler looks at the sales again: after a sale, or a bulk run of them, was booked.
    func wakeScheduler() async {
        await scheduler.wake()
    }

    /// Marks list and grid items whose product has a running or upcoming sale (`data-sale-badge`),
    /// and offers the bulk action's fields (v2 only).
    func addSaleMarks(to view: inout ProductListView, _ l: Localizer) async {
        guard salesAvailable else { view.salesBulk = nil; return }
        let states = (try? await sales.openStates()) ?? [:]
        if !states.isEmpty {
            for index in view.products.indices {
                guard let state = states[view.products[index].id] else { continue }
                view.products[index].sale = SaleMarkView(state: state.rawValue,
                                                         label: l(state == .running ? "sales_badge_running" : "sales_badge_scheduled"))
            }
        }
        view.salesBulk = SalesBulkView(timeHint: l("sales_form_time_hint", ["zone": SaleText(zone: configuration.timeZone, l: l).zoneName]))
    }
}
