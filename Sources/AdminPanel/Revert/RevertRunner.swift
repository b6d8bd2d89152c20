import Foundation
import HTTPServer
import OpenMarketCore

/// The outcome of reverting one product (for the result page).
struct RevertOutcome: Sendable {
    var productID: Int
    var name: String
    var reverted: [EditField] = []
    var conflicts: [FieldChange] = []
    var skipped: [String] = []
    /// Why nothing was sent (a catalog key and its values), nil when the PATCH went through or
    /// nothing needed sending.
    var failure: String?
    var failureArguments: [String: String] = [:]
    var unauthorized = false
}

extension RevertController {
    /// Reverts one product to the old values of `changes` (an activity row's): reads it, plans
    /// (`RevertPlan`), sends ONE update with every field to set back (so nothing is half-reverted
    /// within a product), and records a `revert` row. v1 sends the product's `password`.
    func revertProduct(_ id: Int, changes: [ActivityEntry.FieldChange], row: ActivityRecord, password: String,
                       context: PanelContext, request: HTTPRequest, _ l: Localizer) async -> RevertOutcome {
        var outcome = RevertOutcome(productID: id, name: "")
        let current: ProductDetail
        do throws(OpenMarketError) {
            current = try await upstream.client.product(id: id)
        } catch {
            if case .notFound = error {
                outcome.failure = "safety_revert_product_gone"
            } else {
                outcome.failure = "safety_revert_api_failed"
                outcome.failureArguments = ["reason": PageFailure(error, retryURL: nil).sentence(l)]
            }
            return outcome
        }
        outcome.name = current.name
        let now = ProductFormValues(product: current, thumbnailID: presenter.thumbnailImageID(of: current))
        let plan = RevertPlan(changes: changes, current: now)
        outcome.skipped = plan.skipped
        outcome.conflicts = plan.conflicts.map { conflict in
            var rowValues = now
            rowValues[conflict.field] = conflict.rowNew
            return FieldChange(field: l(conflict.field.labelKey),
                               was: ProductFormController.display(conflict.field, rowValues, product: current, l),
                               now: ProductFormController.display(conflict.field, now, product: current, l),
                               yours: l("safety_revert_left_alone"))
        }
        guard !plan.reverted.isEmpty else { return outcome }

        var (parsed, issues) = plan.values.parse()
        parsed.name = parsed.name.trimmingCharacters(in: .whitespacesAndNewlines)
        let sent = Set(plan.reverted.map(\.rawValue))
        issues = issues.filter { sent.contains($0.field) }
        let changes = parsed.changes(plan.reverted)
        issues += changes.validate(current: current)
        guard issues.isEmpty else {
            outcome.failure = "safety_revert_refused"
            outcome.failureArguments = ["reason": issues.map { l.issue($0, currency: current.currency) }.joined(separator: " ")]
            return outcome
        }
        let requester = ProductWriter.Requester(context, request)
        let note = ProductWriter.Note(action: "revert",
                                      changes: changes.activityChanges(from: current, thumbnailID: presenter.thumbnailImageID(of: current)),
                                      detail: Self.revertDetail(of: row).stored)
        do throws(OpenMarketError) {
            if upstream.writer.dialect.productPasswords {
                _ = try await revertV1(id, changes: changes, password: password, by: requester, note: note)
            } else {
                _ = try await upstream.writer.update(id, changes, by: requester) { _ in note }
            }
            outcome.reverted = plan.reverted
        } catch {
            if case .unauthorized = error {
                outcome.unauthorized = true
                outcome.failure = "safety_revert_wrong_password"
            } else {
                outcome.failure = "safety_revert_api_failed"
                outcome.failureArguments = ["reason": PageFailure(error, retryURL: nil).sentence(l)]
            }
        }
        return outcome
    }

    /// What a revert row says: the original change by its time and action ("2026년 11월 28일
    /// 07:32의 ‘판매가 조정’"), never by a row number the pages do not show.
    static func revertDetail(of row: ActivityRecord) -> ActivityDetail {
        let original = ActivityDetail(stored: row.entry.detail ?? "")?.arguments["action_key"] ?? "activity_action_" + row.entry.action
        return ActivityDetail("revert_of_change", ["row": String(row.id), "start": ActivityDetail.timeValue(row.time),
                                                   "original_key": original])
    }

    /// v1's edit with the product password, counted like the edit form's (a wrong one keeps its
    /// slot in the delete/edit limits).
    private func revertV1(_ id: Int, changes: ProductChanges, password: String, by requester: ProductWriter.Requester,
                          note: ProductWriter.Note) async throws(OpenMarketError) -> ProductDetail {
        guard !password.isEmpty else { throw .unauthorized(message: "") }
        let attempt: DeleteAttempt
        switch await DeleteAttempt.reserve(requester.person, in: deleteGate) {
        case .failure: throw .unauthorized(message: "")
        case .success(let reserved): attempt = reserved
        }
        var v1 = V1ItemChanges(password: password)
        v1.title = changes.name
        v1.descriptions = changes.description
        v1.price = changes.price.map { Int($0) }
        v1.currency = changes.currency
        v1.stock = changes.stock
        v1.discountedPrice = changes.discountedPrice.map { Int($0) }
        do throws(OpenMarketError) {
            let product = try await upstream.writer.update(id, v1, by: requester) { _ in note }
            await attempt.release()
            return product
        } catch {
            if case .unauthorized = error {} else { await attempt.release() }
            throw error
        }
    }
}
