import Foundation
import HTTPServer
import OpenMarketCore

/// The bulk action `schedule-discount` (`sale_discount`, `sale_start`, `sale_end` beside the
/// other bulk fields) and the list's marks for products with a running or upcoming sale.
extension BulkController {
    static let scheduleDiscountAction = "schedule-discount"

    /// One sale per selected product of this vendor, each checked on its own (its price, its
    /// other sales); a period or discount no product could take refuses the whole request.
    func scheduleDiscountBulk(_ request: HTTPRequest, form: FormFields, context: PanelContext, chosen: [String],
                              back: String) async throws -> HTTPResponse {
        guard saleSections.salesAvailable else { throw SaleSections.salesUnavailable }
        let l = context.localizer
        let text = SaleText(zone: pages.configuration.timeZone, l: l)
        let ids: [Int]
        do throws(BulkSelection.Problem) {
            ids = try BulkSelection.ids(chosen)
        } catch .tooMany(let count) {
            throw PageFailure(status: 422, heading: "bulk_too_many_heading", message: "bulk_too_many_message",
                              arguments: ["count": l.number(count), "max": l.number(BulkSelection.maxIDs)])
        } catch {
            return try await refusedBulk(request, context, back: back, refusal: BulkRefusal(
                message: l("bulk_flash_nothing_selected"), form: { form[$0] }, ids: form.all("ids")))
        }
        let values = SaleForm { form[$0] }
        // What is wrong whatever the product: the period, or a discount that is no amount at all.
        let now = pages.configuration.now()
        let general = values.check(price: 1e15, currency: .USD, zone: pages.configuration.timeZone, now: now)
        if case .refused(let issues) = general, !issues.isEmpty {
            // The list again, ticks and values kept, the reasons as an alert (nothing was sent).
            let reasons = issues.map { text.issue($0, currency: .KRW) }.joined(separator: " ")
            return try await refusedBulk(request, context, back: back, refusal: BulkRefusal(
                message: l("sales_bulk_refused_reason", ["reasons": reasons]), form: { form[$0] }, ids: form.all("ids")))
        }

        await upstream.catalogService.ensureFresh()
        let (allowed, refused) = BulkSelection.partition(ids, in: upstream.catalogService.copy.snapshot(), ownVendorID: await upstream.vendor.id)
        var rows: [Int: BulkResultRowView] = [:]
        var done = 0
        // One run, as other bulk actions: grouped on /activity, and its sales cancelled together.
        let runID = BulkRuns.newID()
        let requester = ProductWriter.Requester(context, request)
        func record(_ productID: Int, _ detail: ActivityDetail) async {
            await upstream.writer.record(.init(action: "bulk", detail: detail.stored, runID: runID), productID: productID, by: requester)
        }
        for product in allowed {
            let outcome = await saleSections.createSale(values, for: product, by: context.person, run: runID)
            let reason: String, logged: ActivityDetail
            switch outcome {
            case .success(let sale):
                done += 1
                reason = l("sales_bulk_done", ["discount": text.discount(sale), "period": text.period(sale.start, sale.end)])
                logged = SaleActivityDetail.bulkBooked(sale)
            case .failure(let refusal):
                reason = refusal.messages(text).map(\.message).joined(separator: " ")
                logged = SaleActivityDetail.bulkRefused(refusal)
            }
            await record(product.id, logged)
            rows[product.id] = Self.bulkRow(product.id, name: product.name, done: { if case .success = outcome { true } else { false } }(), reason: reason, back: back)
        }
        for refusal in refused {
            rows[refusal.id] = Self.bulkRow(refusal.id, name: l("bulk_unknown_product", ["id": String(refusal.id)]), done: false,
                                            reason: l(refusal.reason), back: back, linked: false)
            await record(refusal.id, ActivityDetail("bulk", ["action_key": "sales_bulk_action", "outcome_key": "bulk_outcome_failed",
                                                             "reason_key": refusal.reason]))
        }
        if done > 0 { await saleSections.wakeScheduler() }
        var view = BulkResultView(
            heading: l("sales_bulk_heading"),
            summary: l("bulk_summary", ["total": l.number(ids.count), "done": l.number(done), "failed": l.number(ids.count - done)]),
            rows: ids.compactMap { rows[$0] }, backURL: back)
        view.saleRun = done > 0 ? LinkView(url: "/sales?run=" + runID) : nil
        return try pages.page(view, title: l("bulk_title"), context: context, section: .products)
    }

    private static func bulkRow(_ id: Int, name: String, done: Bool, reason: String, back: String, linked: Bool = true) -> BulkResultRowView {
        BulkResultRowView(id: id, name: name, done: done, reason: reason,
                          href: BackLink.link("/products/\(id)", back: back), linked: linked)
    }

}

