import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

extension PanelApp {
    /// `GET /products/{id}/edit`: the form prefilled with the product as the API has it now.
    func editForm(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try Self.productID(request)
        let product = try await loadProduct(id, retry: "/products/\(id)/edit")
        guard await vendor.mayManage(productVendorID: product.vendorID) else {
            throw PageFailure.forbidden("This product belongs to another vendor, so this panel cannot edit it.")
        }
        let visit = await visit(request, create: true)
        let values = ProductFormValues(product: product, thumbnailID: presenter.thumbnailImageID(of: product))
        var state = ProductFormState(values: values, product: product, loaded: values)
        state.back = BackLink.validated(request.query["back"])
        return try editPage(state, id: id, visit: visit, status: 200)
    }

    /// `POST /products/{id}/edit`: re-fetches the product; if it changed since the form was opened,
    /// shows what changed (409) instead of overwriting; else sends only the changed fields.
    func updateProduct(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try Self.productID(request)
        let form = try await request.urlencodedForm()
        let session = try await requireCSRF(request, formToken: form["csrf_token"])
        let visit = Visit(session: session)
        let values = ProductFormValues { form[$0] }
        let loaded = ProductFormValues { form["loaded_" + $0] }
        var state = ProductFormState(values: values, loaded: loaded)
        state.back = BackLink.validated(form["back"])

        let current: ProductDetail
        do throws(OpenMarketError) {
            current = try await client.product(id: id)
        } catch {
            if case .notFound = error { await catalogRemove(id) }
            let status = try ProductFormSubmission.edit.show(error, on: &state)
            return try editPage(state, id: id, visit: visit, status: status)
        }
        state.product = current
        let now = ProductFormValues(product: current, thumbnailID: presenter.thumbnailImageID(of: current))

        let conflict = changes(from: loaded, to: now, product: current)
        if !conflict.isEmpty {
            // The next submit compares against what the API has now, so saving again confirms.
            state.loaded = now
            state.conflict = conflict
            return try editPage(state, id: id, visit: visit, status: 409)
        }

        var (parsed, issues) = values.parse()
        parsed.name = parsed.name.trimmingCharacters(in: .whitespacesAndNewlines)
        var changes = ProductChanges()
        if parsed.name != current.name { changes.name = parsed.name }
        if parsed.description != current.description { changes.description = parsed.description }
        if parsed.price != current.price || parsed.price.isNaN { changes.price = parsed.price }
        if parsed.currency != current.currency { changes.currency = parsed.currency }
        if parsed.discountedPrice != current.discountedPrice || parsed.discountedPrice.isNaN {
            changes.discountedPrice = parsed.discountedPrice
        }
        if parsed.stock != current.stock { changes.stock = parsed.stock }
        if let thumbnail = parsed.thumbnailID, thumbnail != presenter.thumbnailImageID(of: current) {
            changes.thumbnailID = thumbnail
        }
        issues = Self.merged(issues, changes.validate(current: current))
        guard issues.isEmpty else {
            state.issues = issues
            return try editPage(state, id: id, visit: visit, status: 422)
        }
        guard !changes.isEmpty else {
            return await redirect(to: state.back ?? "/products/\(id)", flash: "Nothing to save: no field was changed.", session: session)
        }
        do throws(OpenMarketError) {
            let updated = try await client.update(id: id, changes: changes)
            await catalogRecord(updated)
            return await redirect(to: state.back ?? "/products/\(id)", flash: "Saved changes to “\(updated.name)”.", session: session)
        } catch {
            if case .notFound = error { await catalogRemove(id) }
            let status = try ProductFormSubmission.edit.show(error, on: &state)
            return try editPage(state, id: id, visit: visit, status: status)
        }
    }

    /// Fields whose value on the API differs from the one the form was opened with.
    func changes(from loaded: ProductFormValues, to now: ProductFormValues, product: ProductDetail) -> [FieldChange] {
        var result: [FieldChange] = []
        func money(_ text: String, _ currencyText: String) -> String {
            guard let value = ProductFormValues.number(text), let currency = Currency(rawValue: currencyText) else { return text }
            return Money.format(value, currency)
        }
        func imageLabel(_ text: String) -> String {
            guard let id = Int(text), let index = product.images.firstIndex(where: { $0.id == id }) else { return text }
            return "Image \(index + 1)"
        }
        func short(_ text: String) -> String { text.count > 160 ? String(text.prefix(157)) + "…" : text }
        if loaded.name != now.name { result.append(FieldChange(field: "Name", was: loaded.name, now: now.name)) }
        if loaded.description != now.description {
            result.append(FieldChange(field: "Description", was: short(loaded.description), now: short(now.description)))
        }
        if loaded.currency != now.currency { result.append(FieldChange(field: "Currency", was: loaded.currency, now: now.currency)) }
        if ProductFormValues.number(loaded.price) != ProductFormValues.number(now.price) {
            result.append(FieldChange(field: "Price", was: money(loaded.price, loaded.currency), now: money(now.price, now.currency)))
        }
        if (ProductFormValues.number(loaded.discountedPrice) ?? 0) != (ProductFormValues.number(now.discountedPrice) ?? 0) {
            result.append(FieldChange(field: "Discount", was: money(loaded.discountedPrice, loaded.currency),
                                      now: money(now.discountedPrice, now.currency)))
        }
        if Int(loaded.stock) != Int(now.stock) { result.append(FieldChange(field: "Stock", was: loaded.stock, now: now.stock)) }
        if !loaded.thumbnailID.isEmpty, loaded.thumbnailID != now.thumbnailID {
            result.append(FieldChange(field: "Thumbnail", was: imageLabel(loaded.thumbnailID), now: imageLabel(now.thumbnailID)))
        }
        return result
    }

    private func editPage(_ state: ProductFormState, id: Int, visit: Visit, status: Int) throws -> HTTPResponse {
        let name = state.product?.name ?? state.loaded?.name ?? state.values.name
        return try page("product_edit", title: "Edit \(name)",
                        context: formContext(state, editing: id, csrfToken: visit.session?.csrfToken ?? ""),
                        visit: visit, section: .products, status: status)
    }
}
