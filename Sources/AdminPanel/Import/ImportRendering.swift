import Foundation
import HTTPServer
import OpenMarketCore

extension ImportController {
    /// The preview: one row per record with its outcome, changes (old → new) and broken rules;
    /// above them the error rows as links, with "show errors only" and their download; the apply
    /// form while the preview is open: its one button applies everything when nothing is in
    /// error, else it applies only the rows without errors. A corrected file can be uploaded
    /// onto it (keeping its photos). Every cell is a template value (escaped).
    func importPreviewPage(_ plan: ImportPlan, importID: String, fileName: String, context: PanelContext, status: Int,
                           open: Bool = true, errorsOnly: Bool = false, alert: String? = nil) throws -> HTTPResponse {
        let l = context.localizer
        let counts = Dictionary(grouping: plan.rows, by: \.outcome).mapValues(\.count)
        let errorRows = plan.errorRows
        // `?show=errors` on a preview without error rows shows it whole.
        let errorsOnly = errorsOnly && !errorRows.isEmpty
        let shown = errorsOnly ? errorRows : plan.rows
        let rows = shown.map { row in
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
        let base = "/products/import/\(importID)"
        var apply: ImportApplyFormView?
        if open, !plan.applicable.isEmpty {
            let count = l.number(plan.applicable.count)
            apply = ImportApplyFormView(importID: importID, csrfToken: context.csrfToken,
                                        label: plan.hasErrors ? l.plural("import_apply_valid_button", count: plan.applicable.count)
                                            : l("import_apply_button", ["count": count]),
                                        total: plan.applicable.count, skipErrors: plan.hasErrors,
                                        leftOut: plan.hasErrors ? l.plural("import_errors_left_out", count: errorRows.count) : nil)
        }
        let errors = errorRows.isEmpty ? nil : ImportErrorListView(
            heading: l.plural("import_errors_list_heading", count: errorRows.count),
            links: errorRows.map { row in
                ImportErrorLinkView(line: row.line,
                                    label: l("import_errors_row", ["line": l.number(row.line), "name": row.name.isEmpty ? "—" : row.name]),
                                    reason: row.issues.map { Self.importShortIssue($0, l) }.joined(separator: " · "))
            },
            errorsOnly: errorsOnly, showErrorsURL: base + "?show=errors", showAllURL: base, downloadURL: base + "/errors.csv",
            canCorrect: open)
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
            apply: apply,
            errors: errors,
            alert: alert.map(MessageView.init),
            corrected: open ? Self.correctedForm(importID: importID, files: plan.files.count, hint: l("import_corrected_hint"),
                                                 context: context) : nil)
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
        let errorRows = batch.plan.errorRows.count
        let view = ImportResultView(
            fileName: batch.fileName,
            summary: l("import_result_summary", ["done": l.number(done), "failed": l.number(batch.rows.count - done)]),
            rows: rows,
            // The button's words are the template's own; the result page has no label. A retry
            // of rows applied without the error rows stays without them.
            retry: importOpen(batch) ? ImportApplyFormView(importID: batch.id, csrfToken: context.csrfToken,
                                                           label: "", total: batch.rows.count,
                                                           skipErrors: batch.plan.hasErrors) : nil,
            leftOut: errorRows == 0 ? nil : ImportLeftOutView(
                message: l.plural("import_result_left_out", count: errorRows),
                downloadURL: "/products/import/\(batch.id)/errors.csv"),
            corrected: errorRows == 0 || !importLive(batch) ? nil
                : Self.correctedForm(importID: batch.id, files: batch.plan.files.count,
                                     hint: l("import_corrected_hint_after_apply"), context: context))
        return try pages.page(view, title: l("import_result_title"), context: context, section: .products)
    }

    /// The form that uploads a corrected file onto import `importID`, keeping its `files` photos.
    static func correctedForm(importID: String, files: Int, hint: String, context: PanelContext) -> ImportCorrectedFormView {
        ImportCorrectedFormView(action: "/products/import/\(importID)/file", csrfToken: context.csrfToken, keptPhotos: files,
                                keptLabel: context.localizer.plural("import_corrected_kept", count: files), hint: hint)
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

    /// "price: …" in the reader's language, the column named as on the form (the error list
    /// names the row already; the download's rows are no longer at their old row).
    static func importShortIssue(_ issue: ImportIssue, _ l: Localizer) -> String {
        let rule = l.catalog.texts[issue.key] != nil ? l(issue.key, issue.arguments) : issue.message
        guard !issue.column.isEmpty else { return rule }
        let column = issue.column == "id" ? l("import_errors_id_column") : importFieldLabel(issue.column, l)
        return l("import_errors_reason", ["column": column, "rule": rule])
    }

    /// "Line 3, column price: …" in the reader's language (the English text when no translation
    /// exists). A column is named as that language's sheets head it (Korean: 판매가, the alias a
    /// Korean file carries; English: the contract's `price`); a header the seller wrote that is
    /// no field (a duplicated column) is named as written.
    static func importIssueText(_ issue: ImportIssue, _ l: Localizer) -> String {
        let arguments = issue.arguments
        let rule = l.catalog.texts[issue.key] != nil ? l(issue.key, arguments) : issue.message
        let columnKey = "import_header_" + issue.column
        let column = l.catalog.texts[columnKey] != nil ? l(columnKey) : issue.column
        let key = column.isEmpty ? "import_issue_line" : "import_issue_line_column"
        return l(key, ["line": l.number(issue.line), "column": column, "rule": rule])
    }
}
