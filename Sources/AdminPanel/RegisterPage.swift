import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

extension PanelApp {
    /// `GET /products/new`
    func registerForm(_ request: HTTPRequest) async throws -> HTTPResponse {
        let visit = await visit(request, create: true)
        var state = ProductFormState(values: ProductFormValues())
        state.back = BackLink.validated(request.query["back"])
        return try page("product_new", title: visit.localizer("register_heading"),
                        context: formContext(state, editing: nil, csrfToken: visit.session?.csrfToken ?? "", visit.localizer),
                        visit: visit, section: .register)
    }

    /// `POST /products` (multipart): validates with the core's rules, stages the images so an
    /// error never loses them, then registers through the client and redirects to the product.
    func registerProduct(_ request: HTTPRequest) async throws -> HTTPResponse {
        let form = try await request.multipartForm(limits: MultipartLimits(
            maxParts: 64, maxHeaderBytesPerPart: 8 * 1024, maxFieldBytes: 64 * 1024,
            maxFileBytes: configuration.uploadLimit, spoolThreshold: 512 * 1024), spoolDirectory: spoolDirectory)
        let session = try await requireCSRF(request, formToken: form.fields["csrf_token"])
        let visit = visit(request, session: session)
        let l = visit.localizer
        let values = ProductFormValues { form.fields[$0] }
        var (parsed, issues) = values.parse()

        // Check the new files by their bytes and declared pixels; only images within every limit are staged.
        var incoming: [(filename: String, data: Data, format: ImageFormat)] = []
        for file in form.files(named: "images") {
            let data = try await staging.read(file)
            let name = Self.safeFilename(file.filename)
            let fileIssues = ProductRules.fileIssues(filename: name, data: data)
            guard fileIssues.isEmpty, let format = ImageFormat.detect(data) else {
                issues += fileIssues
                continue
            }
            incoming.append((name, data, format))
        }

        let token = form.fields["staged_token"].flatMap { $0.isEmpty ? nil : $0 }
        let removed = Set(form.fields.all("staged_remove").compactMap { Int($0) })
        var staged: (token: String, images: [StagedImage])?
        do {
            if token != nil || !incoming.isEmpty {
                staged = try await staging.stage(token: token, owner: session.id, adding: incoming, removing: removed)
            }
        } catch {
            issues.append(FieldIssue(field: "images",
                message: "The images you chose earlier were kept for an hour and have expired. Please choose them again.",
                code: "staged_expired"))
            if !incoming.isEmpty {
                staged = try? await staging.stage(token: nil, owner: session.id, adding: incoming, removing: [])
            }
        }

        // The kept images in the seller's order.
        if let current = staged {
            staged = (current.token, StagedOrder.apply(current.images, fields: form.fields))
        }

        var uploads: [ImageUpload] = []
        if let staged {
            for image in staged.images {
                guard let stored = await staging.data(token: staged.token, owner: session.id, id: image.id) else { continue }
                uploads.append(ImageUpload(filename: image.filename, data: stored.data))
            }
        }
        parsed.name = parsed.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if configuration.api.dialect == .v1 {
            return try await registerV1(request, form: form, session: session, visit: visit, values: values,
                                        parsed: parsed, issues: issues, uploads: uploads, staged: staged)
        }
        let draft = NewProduct(name: parsed.name, description: parsed.description, price: parsed.price,
                               currency: parsed.currency, discountedPrice: parsed.discountedPrice,
                               stock: parsed.stock, images: uploads)
        issues = Self.merged(issues, draft.validate())

        var state = ProductFormState(values: values, issues: issues, staged: staged)
        state.back = BackLink.validated(form.fields["back"])
        guard issues.isEmpty else {
            return try registerPage(state, visit: visit, status: 422)
        }
        do throws(OpenMarketError) {
            let product = try await client.create(draft)
            if let staged { await staging.discard(token: staged.token) }
            await vendor.learn(product.vendorID)
            await catalogRecord(product)
            await activity.record(ActivityEntry(session, request, action: "register", productID: product.id,
                                                detail: product.name))
            return await redirect(to: "/products/\(product.id)", flash: l("flash_registered", ["name": product.name]), session: session)
        } catch {
            let status = try ProductFormSubmission.register.show(error, on: &state, l)
            return try registerPage(state, visit: visit, status: status)
        }
    }

    private func registerPage(_ state: ProductFormState, visit: Visit, status: Int) throws -> HTTPResponse {
        try page("product_new", title: visit.localizer("register_heading"),
                 context: formContext(state, editing: nil, csrfToken: visit.session?.csrfToken ?? "", visit.localizer),
                 visit: visit, section: .register, status: status)
    }

    /// The last path component of an uploaded file's name, without control characters.
    static func safeFilename(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let clean = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        let trimmed = clean.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? "image" : String(trimmed.prefix(100))
    }
}
