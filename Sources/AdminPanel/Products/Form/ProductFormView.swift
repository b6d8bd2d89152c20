import HTMLTemplates
import OpenMarketCore

/// `product_form.html`, the form both `product_new` and `product_edit` include: the values as
/// typed, messages, staged images, the product's images (edit) and a "changed meanwhile"
/// comparison. Built by `ProductFormController.formView`; the template only shows.
///
/// A partial compiles in the including page's scope, so the pages declare these fields
/// themselves: `ProductFormView.fields()` gives the table for any `ProductFormPage`.
struct ProductFormView: Sendable {
    var values: ProductFormValues
    var summary: FormIssueSummaryView?
    /// The message next to each field that has one (`FormIssues.fieldOrder` names).
    var fieldErrors: [String: String] = [:]
    var alert: MessageView?
    var conflict: ConflictView?
    var csrfToken = ""
    var keptInput = false
    var isRegister = true
    var currencyHidden = false
    var isV1 = false
    var back: LinkView?
    var draft: DraftButtonView?
    var imagesRequired = false
    var nameHint = ""
    var descriptionHint = ""
    var imagesHint = ""
    var passwordHint = ""
    var staged: StagedImagesView?
    var action = ""
    var submitLabel = ""
    var cancelURL = ""
    /// Edit only: the product's images to choose the thumbnail from, the choice kept in a hidden
    /// field when they could not be loaded, and the values the form was opened with.
    var images: [ThumbnailChoiceView] = []
    var thumbnailHidden: HiddenValueView?
    var loaded: LoadedValuesView?

    init(values: ProductFormValues) { self.values = values }

    static func fields<Page: ProductFormPage>() -> [ViewField<Page>] {
        let valueFields: [ViewField<Page>] = [
            .text("name") { $0.form.values.name },
            .text("description") { $0.form.values.description },
            .text("price") { $0.form.values.price },
            .text("discounted_price") { $0.form.values.discountedPrice },
            .text("stock") { $0.form.values.stock },
            .flag("currency_krw") { $0.form.values.currency != Currency.USD.rawValue },
            .flag("currency_usd") { $0.form.values.currency == Currency.USD.rawValue },
            .flag("currency_hidden") { $0.form.currencyHidden },
            .text("price_example") { ProductFormValues.example($0.form.values.currency) },
        ]
        let ruleFields: [ViewField<Page>] = [
            .int("name_min") { _ in ProductRules.nameLength.lowerBound },
            .int("name_max") { _ in ProductRules.nameLength.upperBound },
            .int("description_min") { _ in ProductRules.descriptionLength.lowerBound },
            .int("description_max") { _ in ProductRules.descriptionLength.upperBound },
            .int("images_max") { _ in ProductRules.imageCount.upperBound },
            .int("image_max_bytes") { _ in ProductRules.maxImageBytes },
            .int("image_max_side") { _ in ProductRules.maxImageSide },
            .int("image_max_pixels") { _ in ProductRules.maxImagePixels },
        ]
        let errorFields: [ViewField<Page>] = FormIssues.fieldOrder.map { field in
            .optionalView(field + "_error") { $0.form.fieldErrors[field].map(MessageView.init) }
        }
        let formFields: [ViewField<Page>] = [
            .optionalView("summary") { $0.form.summary },
            .optionalView("alert") { $0.form.alert },
            .optionalView("conflict") { $0.form.conflict },
            .text("action") { $0.form.action },
            .text("csrf_token") { $0.form.csrfToken },
            .flag("kept_input") { $0.form.keptInput },
            .flag("mode_register") { $0.form.isRegister },
            .flag("mode_edit") { !$0.form.isRegister },
            // v1: a password per product, asked on register and edit; images replaceable on edit;
            // whole-number money; no thumbnail choice (the API has none).
            .flag("v1") { $0.form.isV1 },
            .flag("multipart") { $0.form.isRegister || $0.form.isV1 },
            .flag("image_picker") { $0.form.isRegister || $0.form.isV1 },
            .flag("thumbnail_choice") { !$0.form.isV1 },
            .flag("images_required") { $0.form.imagesRequired },
            .optionalView("back") { $0.form.back },
            .optionalView("draft") { $0.form.draft },
            .text("name_hint") { $0.form.nameHint },
            .text("description_hint") { $0.form.descriptionHint },
            .text("images_hint") { $0.form.imagesHint },
            .text("password_autocomplete") { $0.form.isRegister ? "new-password" : "current-password" },
            .text("password_hint") { $0.form.passwordHint },
            .optionalView("staged") { $0.form.staged },
            .list("images") { $0.form.images },
            .optionalView("thumbnail_hidden") { $0.form.thumbnailHidden },
            .optionalView("loaded") { $0.form.loaded },
            .text("submit_label") { $0.form.submitLabel },
            .text("cancel_url") { $0.form.cancelURL },
        ]
        return valueFields + ruleFields + errorFields + formFields
    }
}

/// A page that includes `product_form.html` (`ProductNewPageView`, `ProductEditPageView`).
protocol ProductFormPage: PageView {
    var form: ProductFormView { get }
}
