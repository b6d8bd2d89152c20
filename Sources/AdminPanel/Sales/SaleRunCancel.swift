import Foundation
import HTTPServer

/// `POST /sales/runs/{run}/cancel`: every sale a bulk 즉시할인 booked, cancelled together (editors,
/// `csrf_token`). Each sale is cancelled as its own 취소 button would (a running one ends at once and
/// gets its earlier discount back); sales already over are skipped and counted. One
/// `sale-run-cancelled` activity row sums it up, beside each sale's own `sale-cancelled` row.
extension SalesController {
    static let runCancelledAction = "sale-run-cancelled"

    func cancelRun(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm(limits: FormLimits(maxFields: 8, maxFieldBytes: 2048))
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        guard saleSections.salesAvailable else { throw SaleSections.salesUnavailable }
        guard let run = request.pathParameters["run"], BulkRuns.isValid(run) else { throw PageFailure.notFound("sales_not_found") }
        let members = try await saleSections.sales.list(.init(runID: run), limit: BulkSelection.maxIDs * 2)
        guard !members.isEmpty else { throw PageFailure.notFound("sales_not_found") }

        let open = members.filter { !$0.state.isFinal }.map(\.id)
        var outcome = SaleRuns.Cancellation(skipped: members.count - open.count)
        // A running sale's cancel calls the API: a few at a time, as other bulk work.
        let scheduler = saleScheduler, person = context.person, address = request.remoteAddress
        let results = await BoundedConcurrency.map(open, limit: pages.configuration.bulkConcurrency) { id in
            await scheduler.cancel(id, person: person, address: address)
        }
        for result in results {
            switch result {
            case .cancelled: outcome.cancelled += 1
            case .pending: outcome.pending += 1
            case .alreadyOver, .notFound: outcome.skipped += 1
            }
        }
        await activity.record(ActivityEntry(context, request, action: Self.runCancelledAction,
                                            detail: Self.runCancelledDetail(outcome).stored))
        let l = context.localizer
        return pages.redirect(to: Self.runCancelBack(form["back"], run: run),
                              flash: l("sale_run_flash", Self.runCancelledArguments(outcome, l)))
    }

    /// The activity row's sentence: how many of the run's sales were cancelled, are being
    /// cancelled, or were skipped, as raw numbers.
    static func runCancelledDetail(_ outcome: SaleRuns.Cancellation) -> ActivityDetail {
        // A part whose count is 0 names no catalog key, so it reads as nothing.
        ActivityDetail("sale_run_cancelled", [
            "total": String(outcome.total), "cancelled": String(outcome.cancelled),
            "pending": String(outcome.pending), "pending_part_key": outcome.pending > 0 ? "sale_run_pending_part" : "-",
            "skipped": String(outcome.skipped), "skipped_part_key": outcome.skipped > 0 ? "sale_run_skipped_part" : "-",
        ])
    }

    /// The flash's arguments: the same sentence parts as the activity row, numbers grouped.
    static func runCancelledArguments(_ outcome: SaleRuns.Cancellation, _ l: Localizer) -> [String: String] {
        var arguments = ["total": l.number(outcome.total), "cancelled": l.number(outcome.cancelled),
                         "pending": l.number(outcome.pending), "skipped": l.number(outcome.skipped)]
        arguments["pending_part"] = outcome.pending > 0 ? l("sale_run_pending_part", arguments) : ""
        arguments["skipped_part"] = outcome.skipped > 0 ? l("sale_run_skipped_part", arguments) : ""
        return arguments
    }

    /// Where a cancel of a run returns: the sales list, a product page, or the activity log.
    static func runCancelBack(_ value: String?, run: String) -> String {
        if let value, value == "/activity" || value.hasPrefix("/activity?"), value.utf8.count <= 1024,
           value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) {
            return value
        }
        return salesBack(value ?? "/sales?run=" + run)
    }
}
