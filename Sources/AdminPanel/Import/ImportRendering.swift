import Foundation
import HTTPServer
import OpenMarketCore

extension ImportController {
    /// The preview: one row per record with its outcome, changes (old → new) and broken rules;
    /// the apply form only when nothing is in error. Every cell is a template value (escaped).
    func importPreviewPage(_ plan: ImportPlan, importID: String?, fileName: String, context: PanelContext, status: Int) throws -> HTTPResponse {
        let l = context.localizer
        let counts = Dictionary(grouping: plan.rows, by: \.outcome).mapValues(\.count)
        let rows = plan.rows.map { row in
            ImportPreviewRowView(
                line: row.line, outcome: row.outcome.rawValue, outcomeLabel: Self.importOutcomeLabel(row.outcome, l),
                isError: row.outcome == .error, name: row.name.isEmpty ? "—" : row.name,
                product: row.productID.map(ImportProductLinkView.init),
                changes: row.changes.map { change in
                    ImportChangeView(field: Self.importFieldLabel(change.field, l),
                                     old: change.old.isEmpty ? "—" : Self.importValue(change.old, change.oldCurrency, l),
                                     new: Self.importValue(change.new, change.newCurrency, l), hasOld: !change.old.isEmpty)
                },
                issues: row.issues.map { TextView(text: Self.importIssueText($0, l)) })
        }
        var apply: ImportApplyFormView?
        if let importID, !plan.hasErrors, !plan.applicable.isEmpty {
            apply = ImportApplyFormView(importID: importID, csrfToken: context.csrfToken,
                                        label: l("import_apply_button", ["count": l.number(plan.applicable.count)]),
                                        total: plan.applicable.count)
        }
        let view = ImportPreviewView(
            fileName: fileName,
            summary: l("import_summary", [
                "create": l.number(counts[.create] ?? 0), "update": l.number(counts[.update] ?? 0),
                // A problem of the whole file (its header) counts as an error too: never "0 errors" above one.
                "unchanged": l.number(counts[.unchanged] ?? 0), "error": l.number((counts[.error] ?? 0) + plan.problems.count)]),
            rows: rows,
            problems: plan.problems.map { TextView(text: Self.importIssueText($0, l)) },
            hasProblems: plan.hasErrors,
            nothingToDo: !plan.hasErrors && plan.applicable.isEmpty,
            apply: apply)
        return try pages.page(view, title: l("import_preview_title"), context: context, section: .products, status: status)
    }

    /// After an apply: one row per applied record, done or failed, linked to its product; a
    /// retry form while rows failed and the import is still open.
    func importResultPage(_ batch: ImportStore.Batch, context: PanelContext) throws -> HTTPResponse {
        let l = context.localizer
        let rows = batch.plan.applicable.map { row in
            let state = batch.rows[row.line]
            let reason = switch state?.state {
            case .done?: l(row.create != nil ? "import_result_created" : "import_result_updated")
            case .pending?, nil: l("import_result_not_tried")
            case .sending?: l("import_result_unknown", ["reason": ImportReason.text(state?.reason ?? "", l)])
            case .failed?: ImportReason.text(state?.reason ?? "", l)
            }
            return ImportResultRowView(line: row.line, done: state?.state == .done, name: row.name,
                                       product: (state?.productID ?? row.productID).map(ImportProductLinkView.init),
                                       reason: reason)
        }
        let done = batch.rows.values.filter { $0.state == .done }.count
        let view = ImportResultView(
            fileName: batch.fileName,
            summary: l("import_result_summary", ["done": l.number(done), "failed": l.number(batch.rows.count - done)]),
            rows: rows,
            // The button's words are the template's own; the result page has no label.
            retry: importOpen(batch) ? ImportApplyFormView(importID: batch.id, csrfToken: context.csrfToken,
                                                           label: "", total: batch.rows.count) : nil)
        return try pages.page(view, title: l("import_result_title"), context: context, section: .products)
    }

    /// An amount as money in its currency (`₩12,000`, `$3.50`), anything else as it is.
    static func importValue(_ value: String, _ currency: String?, _ l: Localizer) -> String {
        guard let currency = currency.flatMap(Currency.init(rawValue:)), let amount = Double(value) else { return value }
        return l.money(amount, currency)
    }

    static func importOutcomeLabel(_ outcome: ImportRow.Outcome, _ l: Localizer) -> String {
        switch outcome {
        case .create: l("import_outcome_create")
        case .update: l("import_outcome_update")
        case .unchanged: l("import_outcome_unchanged")
        case .error: l("import_outcome_error")
        }
    }

    static func importFieldLabel(_ field: String, _ l: Localizer) -> String {
        switch field {
        case "name": l("field_name")
        case "description": l("field_description")
        case "price": l("field_price")
        case "currency": l("field_currency")
        case "discounted_price": l("field_discount")
        case "stock": l("field_stock")
        case "images": l("field_images")
        case "id": "id"
        default: field
        }
    }

    /// "Line 3, price: …" in the reader's language (the English text when no translation exists).
    static func importIssueText(_ issue: ImportIssue, _ l: Localizer) -> String {
        let arguments = issue.arguments
        let rule = l.catalog.texts[issue.key] != nil ? l(issue.key, arguments) : issue.message
        let column = issue.column.isEmpty ? "" : issue.column
        let key = column.isEmpty ? "import_issue_line" : "import_issue_line_column"
        return l(key, ["line": l.number(issue.line), "column": column, "rule": rule])
    }
}
