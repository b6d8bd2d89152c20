import Foundation
import HTMLTemplates
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
struct ProductFormController: Sendable, PageHandling, CatalogWriting {
    let pages: Pages
    let configuration: PanelConfiguration
    let client: OpenMarketClient
    let catalog: CatalogSync
    let catalogDatabase: CatalogDatabase
    let transport: any HTTPTransport
    let presenter: ProductPresenter
    let media: MediaLinks
    let deleteGate: AttemptGate
    let staging: StagedUploads
    let spoolDirectory: URL
    let vendor: VendorIdentity
    let activity: ActivityLog
    let imageStager: ImageStager
    let draftSaving: DraftSaving

    /// Template context of `product_new` / `product_edit` (both include `product_form`).
    func formContext(_ state: ProductFormState, editing productID: Int?, csrfToken: String,
                     _ l: Localizer) -> [String: TemplateValue] {
        var context = state.values.templateFields(l)
        let currency = Currency(rawValue: state.values.currency) ?? .KRW
        context.merge(FormIssues.templateFields(state.issues, l, currency: currency)) { _, new in new }
        context["csrf_token"] = .string(csrfToken)
        // A form shown again (errors, a conflict, kept images) holds typed input: leaving asks first.
        context["kept_input"] = .bool(!state.issues.isEmpty || state.alert != nil || !state.conflict.isEmpty
                                      || !(state.staged?.images.isEmpty ?? true))
        context["alert"] = state.alert.map { .object(["message": .string($0)]) } ?? .null
        context["mode_register"] = .bool(productID == nil)
        context["back"] = state.back.map { .object(["url": .string($0)]) } ?? .null
        context["mode_edit"] = .bool(productID != nil)
        context["draft"] = productID == nil ? .object([
            "id": state.draftID.map { .object(["value": .int($0)]) } ?? .null,
            "label": .string(l("safety_draft_save")),
        ]) : .null
        // v1: a password per product, asked on register and edit; images replaceable on edit;
        // whole-number money; no thumbnail choice (the API has none).
        let v1 = configuration.api.dialect == .v1
        context["v1"] = .bool(v1)
        context["multipart"] = .bool(productID == nil || v1)
        context["image_picker"] = .bool(productID == nil || v1)
        context["images_required"] = .bool(productID == nil && (state.staged?.images.isEmpty ?? true))
        context["thumbnail_choice"] = .bool(!v1)
        context["password_autocomplete"] = .string(productID == nil ? "new-password" : "current-password")
        context["password_hint"] = .string(l(productID == nil ? "form_password_hint_register" : "form_password_hint_edit"))
        if v1, productID != nil {
            context["images_hint"] = .string(l("form_images_replace_hint", [
                "max": "\(ProductRules.imageCount.upperBound)", "size": "\(ProductRules.maxImageBytes / 1024) KB"]))
        }
        context["staged"] = Self.stagedContext(state.staged, l)
        if let productID {
            context["action"] = .string("/products/\(productID)/edit")
            context["submit_label"] = .string(l("edit_submit"))
            context["cancel_url"] = .string(state.back ?? "/products/\(productID)")
            context["product_id"] = .int(productID)
            context["product_name"] = .string(DisplayBounds.name(state.product?.name ?? state.loaded?.name ?? state.values.name))
            let chosen = Int(state.values.thumbnailID)
            let images = (state.product?.images ?? []).prefix(DisplayBounds.images)
            context["images"] = .list(images.enumerated().map { index, image in
                .object([
                    "id": .int(image.id),
                    "src": presenter.imageSource(image.thumbnailURL),
                    "number": .int(index + 1),
                    "label": .string(l("form_image_number", ["number": String(index + 1)])),
                    "checked": .bool(image.id == chosen),
                    "first": .bool(index == 0),
                ])
            })
            // Without the product's images (the API failed), keep the choice in a hidden field.
            context["thumbnail_hidden"] = images.isEmpty && !state.values.thumbnailID.isEmpty
                ? .object(["value": .string(state.values.thumbnailID)]) : .null
            if let loaded = state.loaded {
                context["loaded"] = .object([
                    "name": .string(loaded.name), "description": .string(loaded.description),
                    "price": .string(loaded.price), "currency": .string(loaded.currency),
                    "discounted_price": .string(loaded.discountedPrice), "stock": .string(loaded.stock),
                    "thumbnail_id": .string(loaded.thumbnailID),
                ])
            } else {
                context["loaded"] = .null
            }
            context["conflict"] = state.conflict.isEmpty ? .null : .object([
                "changes": .list(state.conflict.map {
                    .object(["field": .string($0.field), "was": .string($0.was), "now": .string($0.now),
                             "yours": .string($0.yours)])
                }),
                "reload_url": .string("/products/\(productID)/edit"),
            ])
        } else {
            context["action"] = "/products"
            context["submit_label"] = .string(l("register_submit"))
            context["cancel_url"] = .string(state.back ?? "/products")
            context["images"] = .null
            context["conflict"] = .null
            context["loaded"] = .null
        }
        return context
    }

    /// The images kept after an error (register, and edit in v1), with their remove boxes.
    static func stagedContext(_ staged: (token: String, images: [StagedImage])?, _ l: Localizer) -> TemplateValue {
        staged.flatMap { staged in
            staged.images.isEmpty ? nil : .object([
                "token": .string(staged.token),
                "images": .list(staged.images.enumerated().map { index, image in
                    .object([
                        "id": .int(image.id),
                        "src": .string("/uploads/\(staged.token)/\(image.id)"),
                        "filename": .string(image.filename),
                        "size_text": .string(Self.sizeText(image.size)),
                        "index": .int(index),
                        "earlier_label": .string(l("js_picker_earlier", ["file": image.filename])),
                        "later_label": .string(l("js_picker_later", ["file": image.filename])),
                        "position_label": .string(l("form_staged_position_of", ["file": image.filename])),
                        "positions": .list(staged.images.indices.map { other in
                            .object(["number": .int(other + 1), "selected": .bool(other == index)])
                        }),
                        "first": .bool(index == 0),
                    ])
                }),
            ])
        } ?? .null
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
}
