import Foundation
import HTMLTemplates

extension ActivityController {
    /// The activity list's items: single rows, and the rows of one bulk run grouped under an
    /// element `data-bulk-run="{run id}"` with the run's revert form. Writers get a revert form
    /// (`data-revert`) on every edit and bulk row that changed fields; viewers get none.
    func activityItems(_ records: [ActivityRecord], visit: Visit, view: ActivityRowView) -> [TemplateValue] {
        let l = visit.localizer
        let canWrite = visit.session?.role.canWrite ?? false
        let token = visit.session?.csrfToken ?? ""
        let v1 = configuration.api.dialect == .v1
        func form(_ url: String, _ label: String, _ passwordID: String) -> TemplateValue {
            .object(["url": .string(url), "csrf_token": .string(token), "label": .string(label), "v1": .bool(v1),
                     "password_id": .string(passwordID), "password_label": .string(l("safety_revert_password"))])
        }
        func row(_ record: ActivityRecord) -> TemplateValue {
            guard case .object(var fields) = view.row(record) else { return view.row(record) }
            // Always set, so a row never picks up its run's form from the enclosing context.
            fields["revert"] = canWrite && RevertController.isRevertable(record.entry)
                ? form("/activity/\(record.id)/revert", l("safety_revert_row"), "revert-password-\(record.id)") : .null
            return .object(fields)
        }
        var items: [TemplateValue] = []
        var index = records.startIndex
        while index < records.endIndex {
            let record = records[index]
            guard record.entry.action == "bulk", let run = record.entry.runID else {
                items.append(.object(["row": row(record), "run": .null]))
                index += 1
                continue
            }
            var end = index
            while end < records.endIndex, records[end].entry.runID == run { end += 1 }
            let members = records[index..<end]
            let revertable = members.contains { RevertController.isRevertable($0.entry) }
            items.append(.object(["row": .null, "run": .object([
                "id": .string(run),
                "label": .string(l("safety_bulk_run_label", ["count": l.number(members.count)])),
                "rows": .list(members.map(row)),
                "revert": canWrite && revertable
                    ? form("/activity/bulk/\(run)/revert", l("safety_revert_run"), "revert-run-password-\(run)") : .null,
            ])]))
            index = end
        }
        return items
    }
}
