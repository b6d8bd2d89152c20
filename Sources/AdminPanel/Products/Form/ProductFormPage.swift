import Foundation
import HTTPServer
import OpenMarketCore

/// Everything the register/edit form shows besides its values: messages, staged images,
/// the product's images (edit) and a "changed meanwhile" comparison.
struct ProductFormState: Sendable {
    var values: ProductFormValues
    var issues: [FieldIssue] = []
    var alert: String?
    var staged: (token: String, images: [StagedImage])?
    /// Edit only: the product as the API has it now (for its images) and the values the form
    /// was opened with (hidden fields, for the stale-write check).
    var product: ProductDetail?
    var loaded: ProductFormValues?
    var conflict: [FieldChange] = []
    /// The list to return to after saving or cancelling (`back=`, validated).
    var back: String?
    /// Register only: the draft this form was opened from (registering it removes the draft;
    /// saving it as a draft again replaces it).
    var draftID: Int?
}

/// One field that changed on the API while the seller had the edit form open: its value when
/// the form was opened, now on the API, and what the seller's form holds (or that they left it).
struct FieldChange: Sendable, Equatable {
    var field: String
    var was: String
    var now: String
    var yours: String
}

/// The product forms: `/products/new` and `POST /products` (register), `/products/{id}/edit` (edit,
/// with the conflict check), `/products/{id}/duplicate`, and their v1 variants (`V1/`).
///
/// Declared here with the form's shared parts; the handlers extend it in `RegisterPage.swift`,
/// `EditPage.swift`, `DuplicatePage.swift` and `V1/V1Forms.swift`.
struct ProductFormController: Sendable, CatalogWriting {
    let pages: Pages
    let upstream: Upstream
    /// The product's images in the edit form, and the media links duplicating reads through.
    let presenter: ProductPresenter
    /// Wrong v1 product passwords per person (shared with deletes).
    let deleteGate: AttemptGate
    /// Reads the form, then checks, shrinks and stages its images.
    let imageStager: ImageStager
    let draftSaving: DraftSaving

    /// The form of `product_new` / `product_edit` (both include `product_form`).
    func formView(_ state: ProductFormState, editing productID: Int?, csrfToken: String, _ l: Localizer) -> ProductFormView {
        var form = ProductFormView(values: state.values)
        let currency = Currency(rawValue: state.values.currency) ?? .KRW
        (form.summary, form.fieldErrors) = FormIssues.shown(state.issues, l, currency: currency)
        form.csrfToken = csrfToken
        // A form shown again (errors, a conflict, kept images) holds typed input: leaving asks first.
        form.keptInput = !state.issues.isEmpty || state.alert != nil || !state.conflict.isEmpty
            || !(state.staged?.images.isEmpty ?? true)
        form.alert = state.alert.map(MessageView.init)
        form.isRegister = productID == nil
        // Korean stores sell in won: the currency field stays in the form (KRW) but is shown
        // only when USD is in use (this product or any other).
        form.currencyHidden = currency == .KRW && !upstream.catalogService.copy.snapshot().currencies.contains(.USD)
        form.back = state.back.map(LinkView.init)
        if productID == nil {
            form.draft = DraftButtonView(id: state.draftID.map { HiddenValueView(value: String($0)) },
                                         label: l("safety_draft_save"))
        }
        let v1 = upstream.writer.dialect.productPasswords
        form.isV1 = v1
        form.imagesRequired = productID == nil && (state.staged?.images.isEmpty ?? true)
        form.passwordHint = l(productID == nil ? "form_password_hint_register" : "form_password_hint_edit")
        let nameLength = ProductRules.nameLength, descriptionLength = ProductRules.descriptionLength
        form.nameHint = l("form_name_hint", ["min": "\(nameLength.lowerBound)", "max": "\(nameLength.upperBound)"])
        form.descriptionHint = l("form_description_hint", ["min": "\(descriptionLength.lowerBound)",
                                                           "max": l.number(descriptionLength.upperBound)])
        form.imagesHint = v1 && productID != nil
            ? l("form_images_replace_hint", ["max": "\(ProductRules.imageCount.upperBound)",
                                             "size": "\(ProductRules.maxImageBytes / 1024) KB"])
            : l("form_images_hint", ["min": "\(ProductRules.imageCount.lowerBound)", "max": "\(ProductRules.imageCount.upperBound)",
                                     "size": "\(ProductRules.maxImageBytes / 1024) KB"])
        form.staged = Self.stagedView(state.staged, l)
        if let productID {
            form.action = "/products/\(productID)/edit"
            form.submitLabel = l("edit_submit")
            form.cancelURL = state.back ?? "/products/\(productID)"
            let chosen = Int(state.values.thumbnailID)
            let images = (state.product?.images ?? []).prefix(DisplayBounds.images)
            form.images = images.enumerated().map { index, image in
                ThumbnailChoiceView(id: image.id, src: presenter.media.panelPath(for: image.thumbnailURL),
                                    label: l("form_image_number", ["number": String(index + 1)]),
                                    checked: image.id == chosen, first: index == 0)
            }
            // Without the product's images (the API failed), keep the choice in a hidden field.
            if images.isEmpty && !state.values.thumbnailID.isEmpty {
                form.thumbnailHidden = HiddenValueView(value: state.values.thumbnailID)
            }
            form.loaded = state.loaded.map(LoadedValuesView.init)
            if !state.conflict.isEmpty {
                form.conflict = ConflictView(changes: state.conflict, reloadURL: "/products/\(productID)/edit")
            }
        } else {
            form.action = "/products"
            form.submitLabel = l("register_submit")
            form.cancelURL = state.back ?? "/products"
        }
        return form
    }

    /// The images kept after an error (register, and edit in v1), with their remove boxes.
    static func stagedView(_ staged: (token: String, images: [StagedImage])?, _ l: Localizer) -> StagedImagesView? {
        guard let staged, !staged.images.isEmpty else { return nil }
        return StagedImagesView(token: staged.token, images: staged.images.enumerated().map { index, image in
            StagedImageView(id: image.id, src: "/uploads/\(staged.token)/\(image.id)", filename: image.filename,
                            sizeText: Self.sizeText(image.size),
                            earlierLabel: l("js_picker_earlier", ["file": image.filename]),
                            laterLabel: l("js_picker_later", ["file": image.filename]),
                            positionLabel: l("form_staged_position_of", ["file": image.filename]),
                            positions: staged.images.indices.map { PositionOptionView(number: $0 + 1, selected: $0 == index) },
                            first: index == 0)
        })
    }

    static func sizeText(_ bytes: Int) -> String {
        bytes < 1024 ? "\(bytes) B" : "\((bytes + 1023) / 1024) KB"
    }

    /// The issues of the form's own parsing first; the core's rule checks only for fields that
    /// parsed (a price that is not a number should not also be "must be more than 0").
    static func merged(_ parseIssues: [FieldIssue], _ ruleIssues: [FieldIssue]) -> [FieldIssue] {
        let parsedBadly = Set(parseIssues.map(\.field))
        return parseIssues + ruleIssues.filter { !parsedBadly.contains($0.field) || $0.field == "images" }
    }

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.post("/products", .editor, bodyLimit: .upload, page: \.controllers.productFormController) { try await $0.registerProduct($1, $2) }
        routes.get("/products/{id}/duplicate", .editor, page: \.controllers.productFormController) { try await $0.duplicateForm($1, $2) }
        routes.get("/products/new", .editor, page: \.controllers.productFormController) { try await $0.registerForm($1, $2) }
        routes.get("/products/{id}/edit", .editor, page: \.controllers.productFormController) { try await $0.editForm($1, $2) }
        routes.post("/products/{id}/edit", .editor, bodyLimit: .productEdit,
                    page: \.controllers.productFormController) { try await $0.updateProduct($1, $2) }
    }
}
