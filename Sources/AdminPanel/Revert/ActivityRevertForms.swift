import Foundation
import HTMLTemplates

extension ActivityController {
    /// The activity list's items: single rows, and the rows of one bulk run or sheet save grouped under an
    /// element `data-bulk-run="{run id}"` with the run's revert form. Writers get a revert form
    /// (`data-revert`) on every edit and bulk row that changed fields; viewers get none.
    /// `reverted`: the rows a later revert set back (`ActivityLog.revertedRowIDs`). `saleRuns`: the
    /// runs that booked discounts (bulk 즉시할인), which offer "cancel all" instead of a revert.
    func activityItems(_ records: [ActivityRecord], reverted: Set<Int> = [], saleRuns: [String: SaleRuns.Summary] = [:],
                       context: PanelContext, presenter: ActivityRowPresenter) -> [ActivityItemView] {
        let l = context.localizer
        let canWrite = context.role.canWrite
        let token = context.csrfToken
        let v1 = upstream.dialect.productPasswords
        func form(_ url: String, _ label: String, _ passwordID: String) -> RevertFormView {
            RevertFormView(url: url, csrfToken: token, label: label, v1: v1, passwordID: passwordID,
                           passwordLabel: l("safety_revert_password"))
        }
        func row(_ record: ActivityRecord) -> ActivityRowView {
            var row = presenter.row(record)
            row.reverted = reverted.contains(record.id)
            row.revert = canWrite && RevertController.isRevertable(record.entry) && !row.reverted
                ? form("/activity/\(record.id)/revert", l("safety_revert_row"), "revert-password-\(record.id)") : nil
            return row
        }
        var items: [ActivityItemView] = []
        var index = records.startIndex
        while index < records.endIndex {
            let record = records[index]
            guard record.entry.action == "bulk" || record.entry.action == "sheet", let run = record.entry.runID else {
                items.append(ActivityItemView(row: row(record), run: nil))
                index += 1
                continue
            }
            var end = index
            while end < records.endIndex, records[end].entry.runID == run { end += 1 }
            let members = records[index..<end]
            let revertable = members.filter { RevertController.isRevertable($0.entry) }
            let runReverted = !revertable.isEmpty && revertable.allSatisfy { reverted.contains($0.id) }
            let saleRun = saleRuns[run]
            let labelKey = record.entry.action == "sheet" ? "sheet_run_label" : saleRun != nil ? "sale_run_activity_label" : "safety_bulk_run_label"
            items.append(ActivityItemView(row: nil, run: ActivityRunView(
                id: run,
                label: l(labelKey, ["count": l.number(members.count)]),
                rows: members.map(row),
                revert: canWrite && !revertable.isEmpty && !runReverted
                    ? form("/activity/bulk/\(run)/revert", l("safety_revert_run"), "revert-run-password-\(run)") : nil,
                reverted: runReverted,
                sales: saleRun.map { LinkView(url: "/sales?run=" + $0.id) },
                cancelSales: canWrite ? saleRun.flatMap { summary in
                    summary.open > 0 ? SaleRunView.cancelForm(summary, l: l, csrfToken: token, back: "/activity") : nil
                } : nil)))
            index = end
        }
        return items
    }
}
