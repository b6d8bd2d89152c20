import Foundation
import HTTPServer
import OpenMarketCore

/// Register and edit on the 2021 API (`--dialect v1`): each product has its own password, asked
/// by both forms and never shown, logged or kept; money is whole numbers; edit can replace the
/// images (1–5) with the same staging, downscaling (app.js) and keep-on-error as register.
/// A wrong password on edit counts toward the same limit as on delete, so neither form can be
/// used to guess a product's password faster than the other.
extension ProductFormController {
    /// The edit form's limits in v1: those of register (it carries images too).
    var v1UploadLimits: MultipartLimits {
        MultipartLimits(maxParts: 64, maxHeaderBytesPerPart: 8 * 1024, maxFieldBytes: 64 * 1024,
                        maxFileBytes: pages.configuration.uploadLimit, spoolThreshold: 512 * 1024)
    }

    /// The rest of `POST /products` in v1, after the shared parsing and image staging.
    func registerV1(_ request: HTTPRequest, form: MultipartForm, context: PanelContext,
                    values: ProductFormValues, parsed: ProductFormValues.Parsed, issues parseIssues: [FieldIssue],
                    uploads: [ImageUpload], staged: (token: String, images: [StagedImage])?) async throws -> HTTPResponse {
        let l = context.localizer
        var issues = parseIssues
        let price = Self.wholeMoney(parsed.price, field: "price", code: "price_whole", into: &issues)
        let discount = values.discountedPrice.isEmpty
            ? nil : Self.wholeMoney(parsed.discountedPrice, field: "discounted_price", code: "discount_whole", into: &issues)
        let item = V1NewItem(title: parsed.name, descriptions: parsed.description, price: price ?? 1,
                             currency: parsed.currency, stock: parsed.stock, discountedPrice: discount,
                             password: form.fields["password"] ?? "", images: uploads)
        issues = Self.merged(issues, item.validate())
        var state = ProductFormState(values: values, issues: issues, staged: staged)
        state.draftID = form.fields["draft_id"].flatMap { Int($0) }
        guard issues.isEmpty else { return try registerPage(state, context: context, status: 422) }
        do throws(OpenMarketError) {
            let product = try await upstream.writer.create(item, by: .init(context, request)) { product in
                .init(action: "register", detail: ActivityDetail("registered", ["product_name": product.name]).stored)
            }
            if let staged { await imageStager.staging.discard(token: staged.token) }
            await draftSaving.finishDraft(form)
            return pages.redirect(to: "/products/\(product.id)", flash: l("flash_registered", ["name": product.name]))
        } catch {
            let status = try ProductFormSubmission.register.show(error, on: &state, l)
            return try registerPage(state, context: context, status: status)
        }
    }

    /// `POST /products/{id}/edit` in v1 (multipart): the conflict check of v2 edits, then only
    /// the changed fields, the new images if any were chosen, and the password.
    func updateV1(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let id = try Pages.productID(request)
        let form = try await request.multipartForm(limits: v1UploadLimits)
        try pages.requireCSRF(context, formToken: form.fields["csrf_token"])
        let l = context.localizer
        var yours = ProductFormValues { form.fields[$0] }
        let sentOpened = form.fields["loaded_name"] != nil ? ProductFormValues { form.fields["loaded_" + $0] } : nil
        var state = ProductFormState(values: yours, loaded: sentOpened)
        var (staged, uploads, issues) = try await imageStager.stageImages(form, context: context)
        state.staged = staged

        let current: ProductDetail
        do throws(OpenMarketError) {
            current = try await upstream.client.product(id: id)
        } catch {
            let status = try ProductFormSubmission.edit.show(error, on: &state, l)
            return try editPage(state, id: id, context: context, status: status)
        }
        state.product = current
        let now = ProductFormValues(product: current, thumbnailID: presenter.thumbnailImageID(of: current))
        let opened = sentOpened ?? now
        // v1 has no thumbnail choice: the form sends none, which is no change.
        yours.thumbnailID = opened.thumbnailID

        if let conflicted = conflicted(state, yours: yours, opened: opened, now: now, product: current, l) {
            return try editPage(conflicted, id: id, context: context, status: 409)
        }

        let changed = EditMerge.changeSet(yours: yours, opened: opened)
        var (parsed, parseIssues) = yours.parse()
        parsed.name = parsed.name.trimmingCharacters(in: .whitespacesAndNewlines)
        let sent = Set(changed.map(\.rawValue))
        issues += parseIssues.filter { sent.contains($0.field) }
        var changes = V1ItemChanges(password: form.fields["password"] ?? "")
        for field in changed {
            switch field {
            case .name: changes.title = parsed.name
            case .description: changes.descriptions = parsed.description
            case .price: changes.price = Self.wholeMoney(parsed.price, field: "price", code: "price_whole", into: &issues)
            case .currency: changes.currency = parsed.currency
            case .discountedPrice:
                changes.discountedPrice = Self.wholeMoney(yours.discountedPrice.isEmpty ? 0 : parsed.discountedPrice,
                                                          field: "discounted_price", code: "discount_whole", into: &issues)
            case .stock: changes.stock = parsed.stock
            case .thumbnailID: break
            }
        }
        if !uploads.isEmpty { changes.images = uploads }
        let currentItem = V1ItemDetail(id: id, title: current.name, descriptions: current.description,
                                       price: WholeNumber.clamped(current.price), currency: current.currency, stock: current.stock,
                                       discountedPrice: current.discountedPrice > 0 ? WholeNumber.clamped(current.discountedPrice) : nil,
                                       thumbnails: [], images: [], registrationDate: current.createdAt)
        issues = Self.merged(issues, changes.validate(current: currentItem))
        guard issues.isEmpty else {
            state.issues = issues
            return try editPage(state, id: id, context: context, status: 422)
        }
        let isEmpty = changes.title == nil && changes.descriptions == nil && changes.price == nil && changes.currency == nil
            && changes.stock == nil && changes.discountedPrice == nil && changes.images == nil
        guard !isEmpty else {
            return pages.redirect(to: "/products/\(id)", flash: l("flash_nothing_changed"))
        }
        // The product's password counts like the vendor password on delete: its slot is
        // reserved before the API call, and kept only when the password was wrong.
        let attempt: DeleteAttempt
        switch await DeleteAttempt.reserve(context.person, in: deleteGate) {
        case .failure(let wait):
            state.alert = editLockedMessage(wait.seconds, l)
            return try editPage(state, id: id, context: context, status: 429, retryAfter: wait.seconds)
        case .success(let reserved):
            attempt = reserved
        }
        do throws(OpenMarketError) {
            let updated: ProductDetail
            let fieldChanges = Self.v1ActivityChanges(changes, from: current)
            do throws(OpenMarketError) {
                updated = try await upstream.writer.update(id, changes, by: .init(context, request)) { updated in
                    .init(action: "edit", changes: fieldChanges,
                          detail: ActivityDetail("edited", ["product_name": DisplayBounds.name(updated.name),
                                                            "currency": updated.currency.rawValue]).stored)
                }
            } catch {
                if case .unauthorized = error {} else { await attempt.release() }
                throw error
            }
            await attempt.release()
            if let staged { await imageStager.staging.discard(token: staged.token) }
            return pages.redirect(to: "/products/\(id)", flash: l("flash_saved", ["name": DisplayBounds.name(updated.name)]))
        } catch .unauthorized {
            switch await attempt.commitWrongPassword() {
            case .paused(let wait):
                state.alert = l("edit_alert_wrong_password_paused") + " " + editLockedMessage(wait, l)
            case .tries(let remaining):
                state.alert = l.plural("edit_alert_wrong_password", count: remaining)
            }
            state.issues = [FieldIssue(field: "password", message: l("edit_error_wrong_password"))]
            return try editPage(state, id: id, context: context, status: 422)
        } catch {
            let status = try ProductFormSubmission.edit.show(error, on: &state, l)
            return try editPage(state, id: id, context: context, status: status)
        }
    }

    private func editLockedMessage(_ wait: TimeInterval, _ l: Localizer) -> String {
        l("edit_locked_message", ["limit": String(pages.configuration.deleteAttemptLimit),
                                  "window": l.duration(pages.configuration.deleteAttemptWindow), "wait": l.duration(wait)])
    }

    /// A whole amount for v1 (which takes no fractions), or an issue on the field.
    static func wholeMoney(_ value: Double, field: String, code: String, into issues: inout [FieldIssue]) -> Int? {
        guard value.isFinite else { return nil }   // unreadable: the parse issue says so already
        guard value == value.rounded(), abs(value) < 9e15, let whole = WholeNumber.exact(value) else {
            issues.append(FieldIssue(field: field, message: "Enter a whole number: this store takes no fractions.", code: code))
            return nil
        }
        return whole
    }

    /// The activity row's changes: each changed field old → new, and the image count when the
    /// images were replaced. Never the password.
    static func v1ActivityChanges(_ changes: V1ItemChanges, from current: ProductDetail) -> [ActivityEntry.FieldChange] {
        var same = ProductChanges()
        same.name = changes.title
        same.description = changes.descriptions
        same.price = changes.price.map(Double.init)
        same.currency = changes.currency
        same.discountedPrice = changes.discountedPrice.map(Double.init)
        same.stock = changes.stock
        var out = same.activityChanges(from: current, thumbnailID: nil)
        if let images = changes.images {
            out.append(.init(field: "images", old: "\(current.images.count)", new: "\(images.count)"))
        }
        return out
    }
}
