import Foundation
import HTTPServer
import OpenMarketCore

extension ProductFormController {
    /// `GET /products/new`
    func registerForm(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let context = context.withFormKey()
        var state = ProductFormState(values: ProductFormValues())
        state.back = BackLink.validated(request.query["back"])
        return try registerPage(state, context: context, status: 200)
    }

    /// `POST /products` (multipart): validates with the core's rules, stages the images so an
    /// error never loses them, then registers through the client and redirects to the product.
    func registerProduct(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let form = try await imageStager.form(of: request, limits: MultipartLimits(
            maxParts: 64, maxHeaderBytesPerPart: 8 * 1024, maxFieldBytes: 64 * 1024,
            maxFileBytes: pages.configuration.uploadLimit, spoolThreshold: 512 * 1024))
        try pages.requireCSRF(context, formToken: form.fields["csrf_token"])
        let l = context.localizer
        let values = ProductFormValues { form.fields[$0] }
        var (parsed, issues) = values.parse()

        let (staged, uploads, imageIssues) = try await imageStager.stageImages(form, context: context)
        issues += imageIssues
        // "Save as draft": kept in DATA, nothing sent to the API.
        if form.fields["draft"] != nil {
            let shown = try await draftSaving.saveDraft(form, values: values, uploads: uploads, staged: staged, context: context, l: l)
            return pages.redirect(to: "/drafts", flash: l("safety_flash_draft_saved", ["name": shown]))
        }
        parsed.name = parsed.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if upstream.writer.dialect.productPasswords {
            return try await registerV1(request, form: form, context: context, values: values,
                                        parsed: parsed, issues: issues, uploads: uploads, staged: staged)
        }
        let draft = NewProduct(name: parsed.name, description: parsed.description, price: parsed.price,
                               currency: parsed.currency, discountedPrice: parsed.discountedPrice,
                               stock: parsed.stock, images: uploads)
        issues = Self.merged(issues, draft.validate())

        var state = ProductFormState(values: values, issues: issues, staged: staged)
        state.back = BackLink.validated(form.fields["back"])
        state.draftID = form.fields["draft_id"].flatMap { Int($0) }
        guard issues.isEmpty else {
            return try registerPage(state, context: context, status: 422)
        }
        do throws(OpenMarketError) {
            let product = try await upstream.writer.create(draft, by: .init(context, request)) { product in
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

    /// The register form (both dialects).
    func registerPage(_ state: ProductFormState, context: PanelContext, status: Int) throws -> HTTPResponse {
        let form = formView(state, editing: nil, csrfToken: context.csrfToken, context.localizer)
        return try pages.page(ProductNewPageView(form: form), title: context.localizer("register_heading"),
                        context: context, section: .register, status: status)
    }

}
