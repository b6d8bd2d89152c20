import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

extension RevertController {
    /// Whether an activity row offers a revert form: edits, bulk changes and sheet saves that changed fields.
    static func isRevertable(_ entry: ActivityEntry) -> Bool {
        (entry.action == "edit" || entry.action == "bulk" || entry.action == "sheet") && entry.productID != nil
            && entry.changes.contains { EditField(rawValue: $0.field) != nil }
    }

    /// `POST /activity/{row id}/revert` (editors, `csrf_token`; v1 `password`).
    func revertRow(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        guard let text = request.pathParameters["id"], let rowID = Int(text), rowID > 0 else {
            throw PageFailure.notFound("safety_revert_not_found")
        }
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let records = try await activity.records(ids: [rowID])
        guard let record = records.first, Self.isRevertable(record.entry), let productID = record.entry.productID else {
            throw PageFailure.notFound("safety_revert_not_found")
        }
        let password = form["password"] ?? ""
        let outcome = try await reverts.run("row-\(rowID)") { [self] in
            await revertProduct(productID, changes: record.entry.changes, row: record, password: password,
                                context: context, request: request, context.localizer)
        }
        // All set back: to the product, as after a save.
        if outcome.failure == nil, outcome.conflicts.isEmpty, !outcome.reverted.isEmpty {
            return pages.redirect(to: "/products/\(productID)",
                                  flash: context.localizer("safety_flash_reverted", ["name": outcome.name]))
        }
        return try revertResultPage([outcome], heading: "safety_revert_heading_row", context: context)
    }

    /// `POST /activity/bulk/{run id}/revert` (editors, `csrf_token`): every product of the run,
    /// one update each, one at a time.
    func revertBulkRun(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        guard let run = request.pathParameters["run"], BulkRuns.isValid(run) else {
            throw PageFailure.notFound("safety_revert_not_found")
        }
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let ids = try await activity.rowIDs(ofRun: run)
        let records = try await activity.records(ids: ids).filter { Self.isRevertable($0.entry) }
        guard !records.isEmpty else { throw PageFailure.notFound("safety_revert_not_found") }
        let password = form["password"] ?? ""
        // At most the dialect's number of products at a time, results in run order.
        let limit = upstream.writer.dialect.revertConcurrency(bulkConcurrency: pages.configuration.bulkConcurrency)
        let outcomes = try await reverts.run("run-\(run)") { [self] in
            let outcomes = await BoundedConcurrency.map(records, limit: limit) { record -> RevertOutcome? in
                guard let productID = record.entry.productID else { return nil }
                return await self.revertProduct(productID, changes: record.entry.changes, row: record,
                                                password: password, context: context, request: request, context.localizer)
            }
            return outcomes.compactMap { $0 }
        }
        return try revertResultPage(outcomes, heading: "safety_revert_heading_run", context: context)
    }

    private func revertResultPage(_ outcomes: [RevertOutcome], heading: String, context: PanelContext) throws -> HTTPResponse {
        let l = context.localizer
        let reverted = outcomes.filter { !$0.reverted.isEmpty }.count
        let products = outcomes.map { outcome in
            let status: String
            if let failure = outcome.failure {
                status = l(failure, outcome.failureArguments)
            } else if !outcome.reverted.isEmpty {
                status = l("safety_revert_fields_set_back", ["fields": outcome.reverted.map { l($0.labelKey) }.joined(separator: ", ")])
            } else if !outcome.conflicts.isEmpty {
                status = l("safety_revert_nothing_conflicts")
            } else {
                status = l("safety_revert_nothing_to_do")
            }
            return RevertProductView(
                id: outcome.productID,
                name: outcome.name.isEmpty ? l("bulk_unknown_product", ["id": String(outcome.productID)]) : outcome.name,
                outcome: outcome.failure != nil ? "failed" : outcome.reverted.isEmpty ? "unchanged" : "done",
                status: status,
                conflicts: outcome.conflicts.map { RevertConflictView(field: $0.field, was: $0.was, now: $0.now, yours: $0.yours) })
        }
        let view = RevertResultView(
            heading: l(heading),
            summary: l("safety_revert_summary", ["done": l.number(reverted), "total": l.number(outcomes.count)]),
            products: products)
        // Nothing could be set back because of later changes: the conflict's status, as on edit.
        // A wrong v1 password with nothing set back: the form's refusal.
        let status = reverted > 0 ? 200 : outcomes.contains { !$0.conflicts.isEmpty } ? 409
            : outcomes.contains(where: \.unauthorized) ? 422 : 200
        return try pages.page(view, title: l(heading), context: context, section: .activity, status: status)
    }
}
