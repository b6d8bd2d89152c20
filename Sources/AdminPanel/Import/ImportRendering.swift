import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

extension ImportController {
    /// The preview: one row per record with its outcome, changes (old → new) and broken rules;
    /// the apply form only when nothing is in error. Every cell is a template value (escaped).
    func importPreviewPage(_ plan: ImportPlan, importID: String?, fileName: String, visit: Visit, status: Int) throws -> HTTPResponse {
        let l = visit.localizer
        let counts = Dictionary(grouping: plan.rows, by: \.outcome).mapValues(\.count)
        let rows: [TemplateValue] = plan.rows.map { row in
            .object([
                "line": .int(row.line),
                "outcome": .string(row.outcome.rawValue),
                "outcome_label": .string(Self.importOutcomeLabel(row.outcome, l)),
                "is_error": .bool(row.outcome == .error),
                "name": .string(row.name.isEmpty ? "—" : row.name),
                "product": row.productID.map { .object(["href": .string("/products/\($0)"), "id": .int($0)]) } ?? .null,
                "changes": .list(row.changes.map { change in
                    .object(["field": .string(Self.importFieldLabel(change.field, l)),
                             "old": .string(change.old.isEmpty ? "—" : Self.importValue(change.old, change.oldCurrency, l)),
                             "new": .string(Self.importValue(change.new, change.newCurrency, l)), "has_old": .bool(!change.old.isEmpty)])
                }),
                "issues": .list(row.issues.map { .object(["text": .string(Self.importIssueText($0, l))]) }),
            ])
        }
        var context: [String: TemplateValue] = [
            "file_name": .string(fileName),
            "summary": .string(l("import_summary", [
                "create": l.number(counts[.create] ?? 0), "update": l.number(counts[.update] ?? 0),
                "unchanged": l.number(counts[.unchanged] ?? 0), "error": l.number(counts[.error] ?? 0)])),
            "rows": .list(rows),
            "problems": .list(plan.problems.map { .object(["text": .string(Self.importIssueText($0, l))]) }),
            "has_problems": .bool(plan.hasErrors),
            "nothing_to_do": .bool(!plan.hasErrors && plan.applicable.isEmpty),
            "apply": .null,
        ]
        if let importID, !plan.hasErrors, !plan.applicable.isEmpty {
            context["apply"] = .object([
                "action": .string("/products/import/\(importID)/apply"),
                "status_url": .string("/products/import/\(importID)/status.json"),
                "csrf_token": .string(visit.session?.csrfToken ?? ""),
                "label": .string(l("import_apply_button", ["count": l.number(plan.applicable.count)])),
                "total": .int(plan.applicable.count),
            ])
        }
        return try page("import_preview", title: l("import_preview_title"), context: context, visit: visit,
                        section: .products, status: status)
    }

    /// After an apply: one row per applied record, done or failed, linked to its product; a
    /// retry form while rows failed and the import is still open.
    func importResultPage(_ batch: ImportStore.Batch, visit: Visit) throws -> HTTPResponse {
        let l = visit.localizer
        let rows: [TemplateValue] = batch.plan.applicable.map { row in
            let state = batch.rows[row.line]
            let done = state?.state == .done
            let id = state?.productID ?? row.productID
            var reason = ""
            switch state?.state {
            case .done?: reason = l(row.create != nil ? "import_result_created" : "import_result_updated")
            case .pending?, nil: reason = l("import_result_not_tried")
            case .sending?: reason = l("import_result_unknown", ["reason": ImportReason.text(state?.reason ?? "", l)])
            case .failed?: reason = ImportReason.text(state?.reason ?? "", l)
            }
            return .object([
                "line": .int(row.line),
                "outcome": .string(done ? "done" : "failed"),
                "done": .bool(done),
                "name": .string(row.name),
                "product": id.map { .object(["href": .string("/products/\($0)"), "id": .int($0)]) } ?? .null,
                "reason": .string(reason),
            ])
        }
        let done = batch.rows.values.filter { $0.state == .done }.count
        var context: [String: TemplateValue] = [
            "file_name": .string(batch.fileName),
            "summary": .string(l("import_result_summary", ["done": l.number(done), "failed": l.number(batch.rows.count - done)])),
            "rows": .list(rows),
            "retry": .null,
        ]
        if importOpen(batch) {
            context["retry"] = .object([
                "action": .string("/products/import/\(batch.id)/apply"),
                "status_url": .string("/products/import/\(batch.id)/status.json"),
                "csrf_token": .string(visit.session?.csrfToken ?? ""),
                "total": .int(batch.rows.count),
            ])
        }
        return try page("import_result", title: l("import_result_title"), context: context, visit: visit, section: .products)
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
