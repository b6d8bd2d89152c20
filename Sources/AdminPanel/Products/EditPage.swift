import Foundation
import HTTPServer
import OpenMarketCore

extension ProductFormController {
    /// `GET /products/{id}/edit`: the form prefilled with the product as the API has it now.
    func editForm(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let id = try Pages.productID(request)
        let product = try await loadProduct(id, retry: "/products/\(id)/edit")
        guard await upstream.vendor.mayManage(productVendorID: product.vendorID) else {
            throw PageFailure.forbidden("failure_edit_not_yours")
        }
        let context = context.withFormKey()
        let values = ProductFormValues(product: product, thumbnailID: presenter.thumbnailImageID(of: product))
        var state = ProductFormState(values: values, product: product, loaded: values)
        state.back = BackLink.validated(request.query["back"])
        return try editPage(state, id: id, context: context, status: 200)
    }

    /// `POST /products/{id}/edit`: re-fetches the product; if someone changed it since the form
    /// was opened, answers 409 with when-opened / now / yours and a form merged so that saving
    /// again sends only this person's changes (see `EditMerge`); else sends only the changed fields.
    func updateProduct(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        if upstream.writer.dialect.productPasswords { return try await updateV1(request, context) }
        let id = try Pages.productID(request)
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let l = context.localizer
        let yours = ProductFormValues { form[$0] }
        let sentOpened = form["loaded_name"] != nil ? ProductFormValues { form["loaded_" + $0] } : nil
        var state = ProductFormState(values: yours, loaded: sentOpened)
        state.back = BackLink.validated(form["back"])

        let current: ProductDetail
        do throws(OpenMarketError) {
            current = try await upstream.client.product(id: id)
        } catch {
            if case .notFound = error { await catalogGone(id) }
            let status = try ProductFormSubmission.edit.show(error, on: &state, l)
            return try editPage(state, id: id, context: context, status: status)
        }
        state.product = current
        let now = ProductFormValues(product: current, thumbnailID: presenter.thumbnailImageID(of: current))
        // A form without the values it was opened with (an old page) compares with the API's.
        let opened = sentOpened ?? now

        if let conflicted = conflicted(state, yours: yours, opened: opened, now: now, product: current, l) {
            return try editPage(conflicted, id: id, context: context, status: 409)
        }

        let changed = EditMerge.changeSet(yours: yours, opened: opened)
        var (parsed, issues) = yours.parse()
        parsed.name = parsed.name.trimmingCharacters(in: .whitespacesAndNewlines)
        let changes = parsed.changes(changed)
        // Parsing problems matter only for the fields being sent.
        let sent = Set(changed.map(\.rawValue))
        issues = Self.merged(issues.filter { sent.contains($0.field) }, changes.validate(current: current))
        guard issues.isEmpty else {
            state.issues = issues
            return try editPage(state, id: id, context: context, status: 422)
        }
        guard !changes.isEmpty else {
            return pages.redirect(to: state.back ?? "/products/\(id)", flash: l("flash_nothing_changed"))
        }
        do throws(OpenMarketError) {
            let fieldChanges = changes.activityChanges(from: current, thumbnailID: presenter.thumbnailImageID(of: current))
            let updated = try await upstream.writer.update(id, changes, by: .init(context, request)) { updated in
                .init(action: "edit", changes: fieldChanges,
                      detail: ActivityDetail("edited", ["product_name": DisplayBounds.name(updated.name), "currency": updated.currency.rawValue]).stored)
            }
            return pages.redirect(to: state.back ?? "/products/\(id)", flash: l("flash_saved", ["name": DisplayBounds.name(updated.name)]))
        } catch {
            let status = try ProductFormSubmission.edit.show(error, on: &state, l)
            return try editPage(state, id: id, context: context, status: status)
        }
    }

    /// The form again when the product changed on the API since it was opened: your changes
    /// merged over theirs, and the when-opened / now / yours table. Nil when nothing conflicts.
    /// Edit in both dialects.
    func conflicted(_ state: ProductFormState, yours: ProductFormValues, opened: ProductFormValues,
                    now: ProductFormValues, product: ProductDetail, _ l: Localizer) -> ProductFormState? {
        let conflicting = EditMerge.conflicts(opened: opened, now: now)
        guard !conflicting.isEmpty else { return nil }
        let mine = Set(EditMerge.changeSet(yours: yours, opened: opened))
        var state = state
        state.values = EditMerge.merged(yours: yours, opened: opened, now: now)
        state.loaded = now
        state.conflict = conflicting.map { field in
            FieldChange(field: l(field.labelKey),
                        was: Self.display(field, opened, product: product, l),
                        now: Self.display(field, now, product: product, l),
                        yours: mine.contains(field) ? Self.display(field, yours, product: product, l) : l("conflict_untouched"))
        }
        return state
    }

    /// A field's value as the conflict table shows it: money formatted, images by number,
    /// long descriptions shortened.
    static func display(_ field: EditField, _ values: ProductFormValues, product: ProductDetail, _ l: Localizer) -> String {
        let text = values[field]
        switch field {
        case .price, .discountedPrice:
            let amount = text.isEmpty && field == .discountedPrice ? 0 : ProductFormValues.number(text)
            guard let amount, let currency = Currency(rawValue: values.currency) else { return text }
            return l.money(amount, currency)
        case .thumbnailID:
            guard let id = Int(text), let index = product.images.firstIndex(where: { $0.id == id }) else { return text }
            return l("form_image_number", ["number": String(index + 1)])
        case .description:
            return text.count > 160 ? String(text.prefix(157)) + "…" : text
        default:
            return text
        }
    }

    /// The edit form (both dialects); `retryAfter` when the API asked to wait.
    func editPage(_ state: ProductFormState, id: Int, context: PanelContext, status: Int,
                  retryAfter: TimeInterval? = nil) throws -> HTTPResponse {
        let name = DisplayBounds.name(state.product?.name ?? state.loaded?.name ?? state.values.name)
        let l = context.localizer
        let view = ProductEditPageView(form: formView(state, editing: id, csrfToken: context.csrfToken, l),
                                       productID: id, heading: l("edit_heading", ["name": name]))
        var response = try pages.page(view, title: l("edit_title", ["name": name]), context: context, section: .products, status: status)
        if let retryAfter { response.headers["Retry-After"] = String(WholeNumber.clamped(retryAfter, rounding: .up)) }
        return response
    }
}
