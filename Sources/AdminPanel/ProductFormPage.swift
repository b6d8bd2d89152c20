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
}

/// One field that changed on the API while the seller had the edit form open: its value when
/// the form was opened, now on the API, and what the seller's form holds (or that they left it).
struct FieldChange: Sendable, Equatable {
    var field: String
    var was: String
    var now: String
    var yours: String
}

extension PanelApp {
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
        context["mode_edit"] = .bool(productID != nil)
        if let productID {
            context["action"] = .string("/products/\(productID)/edit")
            context["submit_label"] = .string(l("edit_submit"))
            context["cancel_url"] = .string("/products/\(productID)")
            context["product_id"] = .int(productID)
            context["product_name"] = .string(state.product?.name ?? state.loaded?.name ?? state.values.name)
            let chosen = Int(state.values.thumbnailID)
            let images = state.product?.images ?? []
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
            context["cancel_url"] = "/products"
            context["images"] = .null
            context["conflict"] = .null
            context["loaded"] = .null
            context["staged"] = state.staged.flatMap { staged in
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
                            "first": .bool(index == 0),
                            "last": .bool(index == staged.images.count - 1),
                        ])
                    }),
                ])
            } ?? .null
        }
        return context
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
