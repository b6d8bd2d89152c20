import Foundation
import HTTPServer
import OpenMarketCore

extension BulkController {
    /// `POST /products/bulk` (`ids`…, `action`, its value, `csrf_token`, `back`): one result row
    /// per product. Works as a plain form post; the list's script only adds a progress bar.
    func bulkAction(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm(limits: FormLimits(maxFields: 512, maxFieldBytes: 8 * 1024))
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let l = context.localizer
        let back = BackLink.validated(form["back"]) ?? "/products"

        // "Select all on this page" without JS: the page's own ids come along in `page_ids`.
        let chosen = form["select_all"] == "1" ? form.all("page_ids") : form.all("ids")
        if form["action"] == Self.scheduleDiscountAction {
            return try await scheduleDiscountBulk(request, form: form, context: context, chosen: chosen, back: back)
        }
        let ids: [Int]
        let action: BulkSelection.Action
        do throws(BulkSelection.Problem) {
            ids = try BulkSelection.ids(chosen)
            action = try BulkSelection.action { form[$0] }
        } catch .nothingSelected {
            return try await refusedBulk(request, context, back: back, refusal: BulkRefusal(
                message: l("bulk_flash_nothing_selected"), form: { form[$0] }, ids: form.all("ids")))
        } catch .tooMany(let count) {
            throw PageFailure(status: 422, heading: "bulk_too_many_heading", message: "bulk_too_many_message",
                              arguments: ["count": l.number(count), "max": l.number(BulkSelection.maxIDs)])
        } catch .invalid(let key) {
            return try await refusedBulk(request, context, back: back, refusal: BulkRefusal(
                message: l(key), form: { form[$0] }, ids: form.all("ids")))
        }

        // One delete try for the whole selection: its slot is reserved before anything is sent and
        // kept only when the password is wrong (the delete limits of the single delete).
        var attempt: DeleteAttempt?
        if case .delete = action {
            switch await DeleteAttempt.reserve(context.person, in: deleteGate) {
            case .failure(let wait):
                var response = pages.errorPage(PageFailure(status: 429, heading: "delete_locked_heading",
                                                           message: "bulk_locked_message",
                                                           arguments: ["wait": l.duration(wait.seconds)]), context: context)
                response.headers["Retry-After"] = wait.header
                return response
            case .success(let reserved):
                attempt = reserved
            }
        }

        await upstream.catalogService.ensureFresh()
        let (allowed, refused) = BulkSelection.partition(ids, in: upstream.catalogService.copy.snapshot(), ownVendorID: await upstream.vendor.id)
        let requester = ProductWriter.Requester(context, request)
        let runner = BulkRunner(writer: upstream.writer, concurrency: pages.configuration.bulkConcurrency, gauge: bulkGauge, requester: requester)
        let runID = BulkRuns.newID()
        var outcomes: [BulkRunner.Outcome]
        do throws(BulkRunner.Stop) {
            outcomes = try await runner.run(action, on: allowed)
            await attempt?.release()
        } catch {
            // Wrong vendor password: nothing was deleted; it counts once toward the limit.
            await attempt?.commitWrongPassword()
            await upstream.writer.record(.init(action: "delete-refused", detail: ActivityDetail("bulk_delete_wrong_password").stored),
                                productID: allowed.first?.id, by: requester)
            outcomes = allowed.map { .init(id: $0.id, name: $0.name, done: false, reason: "bulk_reason_password_refused") }
        }
        for product in refused.map({ refusal in
            BulkRunner.Outcome(id: refusal.id, name: "", done: false, reason: refusal.reason)
        }) { outcomes.append(product) }
        // Keep the order the seller chose.
        let position = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        outcomes.sort { (position[$0.id] ?? 0) < (position[$1.id] ?? 0) }

        for outcome in outcomes {
            // Found deleted by a read, before anything was sent (a delete's own is gone already).
            if outcome.deleted { await upstream.catalogService.gone(outcome.id) }
            await upstream.writer.record(.init(action: "bulk", changes: outcome.changes, detail: Self.bulkActivityDetail(action, outcome).stored,
                                      runID: runID), productID: outcome.id, by: requester)
        }

        let done = outcomes.filter(\.done).count
        let rows = outcomes.map { outcome in
            BulkResultRowView(
                id: outcome.id,
                name: outcome.name.isEmpty ? l("bulk_unknown_product", ["id": String(outcome.id)]) : outcome.name,
                done: outcome.done, reason: l(outcome.reason, outcome.arguments),
                href: outcome.deleted ? "" : BackLink.link("/products/\(outcome.id)", back: back),
                linked: !outcome.deleted && !outcome.name.isEmpty)
        }
        let view = BulkResultView(
            heading: l(Self.bulkHeadingKey(action)),
            summary: l("bulk_summary", ["total": l.number(outcomes.count), "done": l.number(done), "failed": l.number(outcomes.count - done)]),
            rows: rows, backURL: back)
        return try pages.page(view, title: l("bulk_title"), context: context, section: .products)
    }

    /// A bulk row of the activity log: the action, its outcome and the reason, each a catalog key
    /// rendered in the reader's language, and the product's name (the row names the product even
    /// after a delete).
    static func bulkActivityDetail(_ action: BulkSelection.Action, _ outcome: BulkRunner.Outcome) -> ActivityDetail {
        var arguments = outcome.arguments
        arguments["action_key"] = "bulk_action_" + action.name.replacingOccurrences(of: "-", with: "_")
        arguments["outcome_key"] = outcome.done ? "bulk_outcome_done" : "bulk_outcome_failed"
        arguments["reason_key"] = outcome.reason
        if !outcome.name.isEmpty { arguments["product_name"] = outcome.name }
        return ActivityDetail("bulk", arguments)
    }

    /// A refused bulk request: the list it came from, shown again (422) with the seller's ticks,
    /// action and values, and the reason as an alert. Nothing was sent to the API.
    func refusedBulk(_ request: HTTPRequest, _ context: PanelContext, back: String,
                     refusal: BulkRefusal) async throws -> HTTPResponse {
        let listTarget = back == "/products" || back.hasPrefix("/products?") ? back : "/products"
        let listRequest = try HTTPRequest(method: "GET", target: listTarget, headers: request.headers,
                                          remoteAddress: request.remoteAddress)
        // The list's language links lead to the list, not to the post.
        var context = context
        context.languageSwitchTarget = Pages.languageSwitchTarget(listRequest)
        return try await listPage(listRequest, context, refusal)
    }

    static func bulkHeadingKey(_ action: BulkSelection.Action) -> String {
        switch action {
        case .delete: "bulk_heading_delete"
        case .setStock: "bulk_heading_stock"
        case .setDiscount: "bulk_heading_discount"
        case .adjustPrice: "bulk_heading_price"
        }
    }
}
