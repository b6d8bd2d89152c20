import Foundation
import HTTPServer
import OpenMarketCore

/// One product of a save: what the seller changed, checked, and what became of it.
struct SheetSaveOutcome: Sendable {
    var id: Int
    var name: String
    var saved: [SheetField] = []
    /// Fields someone changed since the sheet was loaded, with their value now (left alone).
    var conflicts: [(field: SheetField, now: String)] = []
    var issues: [FieldIssue] = []
    /// A catalog key, and its arguments, when the product could not be saved.
    var failure: String?
    var failureArguments: [String: String] = [:]
    var currency: Currency = .KRW
    var updated: ProductDetail?
    var deleted = false
    var changes: [ActivityEntry.FieldChange] = []
}

extension SheetController {
    /// What one changed product needs for its save.
    struct Plan: Sendable {
        var row: SheetRowInput
        var name: String
        var currency: Currency
        var changed: [SheetField]
        var loaded: ProductFormValues
        var changes: ProductChanges
    }

    /// `POST /products/sheet` (editors, `csrf_token`, `query`, `{id}.{field}` and `{id}.was.{field}`).
    /// Any invalid cell: 422 and nothing sent. Else one update per changed product with only its
    /// changed fields, `bulkConcurrency` at a time; a field someone changed since the sheet was
    /// loaded is left alone and shown as a conflict. One `sheet` activity run.
    func saveSheet(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm(limits: FormLimits(maxFields: Self.maxRows * 8 + 16, maxFieldBytes: 8 * 1024))
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let l = context.localizer
        let queryRequest = try HTTPRequest(method: "GET", target: "/products/sheet?" + String((form["query"] ?? "").prefix(2048)),
                                           headers: request.headers, remoteAddress: request.remoteAddress)
        let query = Self.query { queryRequest.query[$0] }
        guard upstream.dialect.hasVendor else {
            return try await renderSheet(query, context: context, state: SheetState(), status: 404)
        }
        let rows = SheetRowInput.rows(form.items.map { ($0.name, $0.value) })
        guard rows.count <= Self.maxRows else {
            throw PageFailure(status: 422, heading: "sheet_too_many_heading", message: "sheet_too_many_message",
                              arguments: ["max": l.number(Self.maxRows)])
        }
        var state = SheetState()
        state.keep(rows)

        // Check every changed cell first: one invalid cell and nothing is sent.
        let snapshot = upstream.catalogService.copy.snapshot()
        let byID = Dictionary(snapshot.products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let ownVendor = await upstream.vendor.id
        var plans: [Plan] = []
        var problems: [SheetProblemView] = []
        for row in rows {
            guard let product = byID[row.id] else {
                if !row.changedFields(loaded: nil).isEmpty { state.failures[row.id] = l("sheet_reason_gone") }
                continue
            }
            let loaded = Self.loadedValues(product)
            let changed = row.changedFields(loaded: loaded)
            guard !changed.isEmpty else { continue }
            guard let ownVendor, product.vendorID == ownVendor else {
                state.failures[row.id] = l("sheet_reason_not_yours")
                continue
            }
            let check = SheetCheck(row, changed: changed, currency: product.currency, loaded: loaded)
            for issue in check.issues {
                guard let field = SheetField(rawValue: issue.field) else { continue }
                let cell = SheetState.Cell(id: row.id, field: field)
                let message = l.issue(issue, currency: product.currency)
                if state.errors[cell] == nil {
                    state.errors[cell] = message
                    problems.append(SheetProblemView(cellID: Self.cellID(cell),
                                                     message: l("sheet_problem_item", ["name": DisplayBounds.name(product.name),
                                                                                      "field": l(Self.labelKey(field)),
                                                                                      "message": message])))
                }
            }
            plans.append(Plan(row: row, name: DisplayBounds.name(product.name), currency: product.currency,
                              changed: changed, loaded: loaded, changes: check.changes))
        }
        guard problems.isEmpty else {
            state.problems = SheetProblemsView(heading: l.plural("sheet_problems", count: problems.count), items: problems)
            return try await renderSheet(query, context: context, state: state, status: 422)
        }
        guard !plans.isEmpty || !state.failures.isEmpty else {
            state.outcome = SheetOutcomeView(alert: false, message: l("sheet_nothing_changed"), items: [])
            return try await renderSheet(query, context: context, state: state, status: 200)
        }

        let requester = ProductWriter.Requester(context, request)
        let outcomes = await BoundedConcurrency.map(plans, limit: pages.configuration.bulkConcurrency) { plan in
            await self.save(plan, by: requester, l)
        }
        let runID = BulkRuns.newID()
        var items: [TextView] = []
        var savedCells = 0, savedProducts = 0
        for outcome in outcomes {
            // Found deleted by its read, before anything was sent.
            if outcome.deleted { await catalogGone(outcome.id) }
            let quoted = l("language_quoted_product", ["name": outcome.name])
            for issue in outcome.issues {
                guard let field = SheetField(rawValue: issue.field) else { continue }
                state.errors[SheetState.Cell(id: outcome.id, field: field)] = l.issue(issue, currency: outcome.currency)
            }
            for conflict in outcome.conflicts {
                let cell = SheetState.Cell(id: outcome.id, field: conflict.field)
                state.conflicts[cell] = l("sheet_conflict", ["now": Self.display(conflict.field, conflict.now, outcome.currency, l)])
                // Saving again replaces the colleague's value on purpose: it is now the loaded one.
                state.was[cell] = conflict.now
                items.append(TextView(text: l("sheet_outcome_conflict", ["product": quoted, "field": l(Self.labelKey(conflict.field))])))
            }
            if let failure = outcome.failure {
                let reason = l(failure, outcome.failureArguments)
                state.failures[outcome.id] = reason
                items.append(TextView(text: l("sheet_outcome_failed", ["product": quoted, "reason": reason])))
            } else {
                for field in outcome.saved { state.saved.insert(SheetState.Cell(id: outcome.id, field: field)) }
                state.settle(outcome.id)
                if !outcome.saved.isEmpty {
                    savedCells += outcome.saved.count
                    savedProducts += 1
                }
            }
            if outcome.failure != nil || !outcome.changes.isEmpty {
                await upstream.writer.record(.init(action: "sheet", changes: outcome.changes, detail: Self.activityDetail(outcome).stored,
                                          runID: runID), productID: outcome.id, by: requester)
            }
        }
        for id in state.rowOrder where state.failures[id] != nil && !outcomes.contains(where: { $0.id == id }) {
            items.append(TextView(text: l("sheet_outcome_failed", ["product": "#\(id)", "reason": state.failures[id] ?? ""])))
        }
        let saved = l("sheet_saved_summary", ["cells": l.plural("sheet_count_cells", count: savedCells),
                                              "products": l.plural("sheet_count_products", count: savedProducts)])
        state.outcome = SheetOutcomeView(alert: !items.isEmpty,
                                         message: items.isEmpty ? saved : l("sheet_partly_saved", ["saved": saved]),
                                         items: items)
        return try await renderSheet(query, context: context, state: state, status: 200)
    }

    /// One product's save: read it as the API has it now, leave alone what someone else changed,
    /// send the rest in one update.
    private func save(_ plan: Plan, by requester: ProductWriter.Requester, _ l: Localizer) async -> SheetSaveOutcome {
        bulkGauge.enter()
        defer { bulkGauge.leave() }
        var outcome = SheetSaveOutcome(id: plan.row.id, name: plan.name, currency: plan.currency)
        do throws(OpenMarketError) {
            let current = try await upstream.client.product(id: plan.row.id)
            outcome.name = DisplayBounds.name(current.name)
            outcome.currency = current.currency
            guard await upstream.vendor.mayManage(productVendorID: current.vendorID) else {
                outcome.failure = "sheet_reason_not_yours"
                return outcome
            }
            let now = Self.loadedValues(CatalogProduct(current, seenAt: pages.configuration.now()))
            var sending = ProductChanges()
            var sent: [SheetField] = []
            for field in plan.changed {
                let edit = field.editField
                let typed = plan.row.typed[field] ?? ""
                let was = plan.row.was[field] ?? plan.loaded[edit]
                if SheetRowInput.same(field, now[edit], typed) {
                    outcome.saved.append(field)
                } else if !SheetRowInput.same(field, now[edit], was) {
                    outcome.conflicts.append((field, now[edit]))
                } else {
                    sent.append(field)
                    switch field {
                    case .name: sending.name = plan.changes.name
                    case .price: sending.price = plan.changes.price
                    case .discountedPrice: sending.discountedPrice = plan.changes.discountedPrice
                    case .stock: sending.stock = plan.changes.stock
                    }
                }
            }
            guard !sending.isEmpty else { return outcome }
            // Judged again on the product as it is now (a colleague may have lowered the price).
            let issues = sending.validate(current: current)
            guard issues.isEmpty else {
                outcome.issues = issues
                outcome.failure = "sheet_reason_refused"
                outcome.failureArguments = ["reason": issues.map { l.issue($0, currency: current.currency) }.joined(separator: " ")]
                return outcome
            }
            outcome.updated = try await upstream.writer.update(plan.row.id, sending, by: requester, note: nil)
            outcome.changes = sending.activityChanges(from: current, thumbnailID: nil)
            outcome.saved += sent
        } catch {
            outcome.saved = []
            outcome.conflicts = []
            if case .notFound = error {
                outcome.deleted = true
                outcome.failure = "sheet_reason_gone"
            } else {
                outcome.failure = "sheet_reason_api"
                outcome.failureArguments = ["reason": PageFailure(error, retryURL: nil).sentence(l)]
            }
        }
        return outcome
    }

    /// The four columns of a product as the sheet's inputs show them when loaded.
    static func loadedValues(_ product: CatalogProduct) -> ProductFormValues {
        var values = ProductFormValues()
        values.name = DisplayBounds.name(product.name)
        values.price = Money.inputValue(product.price)
        values.currency = product.currency.rawValue
        values.discountedPrice = Money.inputValue(product.discountedPrice)
        values.stock = String(product.stock)
        return values
    }

    /// The element id of a cell's input (the error summary links to it).
    static func cellID(_ cell: SheetState.Cell) -> String {
        "sheet-\(cell.id)-\(cell.field.rawValue)"
    }

    /// A value as a seller reads it: money with its currency, counts grouped.
    static func display(_ field: SheetField, _ text: String, _ currency: Currency, _ l: Localizer) -> String {
        switch field {
        case .price, .discountedPrice:
            guard let amount = text.isEmpty ? 0 : AmountText.parse(text) else { return text }
            return l.money(amount, currency)
        case .stock:
            return Int(text).map(l.number) ?? text
        case .name:
            return "‘\(text)’"
        }
    }

    /// A sheet row of the activity log: the product, and why it failed when it did.
    static func activityDetail(_ outcome: SheetSaveOutcome) -> ActivityDetail {
        var arguments = ["product_name": outcome.name, "currency": outcome.currency.rawValue]
        guard let failure = outcome.failure else { return ActivityDetail("sheet_saved", arguments) }
        arguments["reason_key"] = failure
        for (key, value) in outcome.failureArguments { arguments[key] = value }
        return ActivityDetail("sheet_failed", arguments)
    }
}
