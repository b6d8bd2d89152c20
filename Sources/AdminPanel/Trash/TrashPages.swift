import Foundation
import HTTPServer
import OpenMarketCore

/// `/trash`: deleted products kept by the panel, and restoring one.
struct TrashController: Sendable {
    let pages: Pages
    /// Every product write: the API, the copy, the activity row, the trash keep.
    let writer: ProductWriter
    let trash: TrashStore
    let safetyFiles: SafetyFiles
    let restores: KeyedQueue<Int>

    /// `GET /trash`: every product the panel deleted and kept, newest first, for everyone signed
    /// in; editors get a restore form on each (in v1 with a field for the new product password).
    func trashPage(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let context = context.withFormKey()
        let l = context.localizer
        let items = try await trash.waiting()
        let canWrite = context.role.canWrite
        let v1 = writer.dialect.productPasswords
        let view = TrashPageView(
            intro: l("safety_trash_intro", ["days": l.number(pages.configuration.trashDays)]),
            items: items.map { item in
                TrashItemView(
                    oldID: item.oldID, name: item.name,
                    deleted: l("safety_trash_deleted_by", ["person": item.person.isEmpty ? "?" : item.person,
                                                           "time": l.dateTime(item.deletedAt, in: pages.configuration.timeZone)]),
                    expires: l("safety_trash_expires", [
                        "date": l.date(item.deletedAt.addingTimeInterval(Double(pages.configuration.trashDays) * 86_400))]),
                    restore: canWrite ? TrashRestoreFormView(oldID: item.oldID, csrfToken: context.csrfToken, v1: v1)
                        : nil)
            })
        return try pages.page(view, title: l("safety_trash_heading"), context: context, section: .trash)
    }

    /// `POST /trash/{old id}/restore` (`csrf_token`; v1 `password`): registers the kept product
    /// again with the same fields and images (a new id), records `restore`, 303 to it. Restores
    /// of one item run one at a time, so a second one finds it restored and leads to the same product.
    func restoreFromTrash(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        guard let text = request.pathParameters["id"], let oldID = Int(text), oldID > 0 else {
            throw PageFailure.notFound("safety_trash_not_found")
        }
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let l = context.localizer
        let password = form["password"] ?? ""
        if writer.dialect.productPasswords, password.isEmpty {
            throw PageFailure(status: 422, heading: "safety_restore_failed_heading", message: "safety_restore_password_needed")
        }
        return try await restores.run(oldID) { [self] in
            guard let item = try await trash.item(oldID) else { throw PageFailure.notFound("safety_trash_not_found") }
            if let newID = item.restoredAs {
                return pages.redirect(to: "/products/\(newID)", flash: l("safety_flash_already_restored", ["name": item.name]))
            }
            let kept: (product: SavedProduct, images: [ImageUpload])
            do {
                kept = try await safetyFiles.read(area: TrashKeeper.trashArea, folder: item.folder)
            } catch SafetyFiles.Failure.missing(let file) {
                throw PageFailure(status: 409, heading: "safety_restore_failed_heading", message: "safety_restore_files_missing",
                                  arguments: ["file": file])
            }
            let product = try await registerSaved(kept.product.values, images: kept.images, password: password,
                                                  by: .init(context, request), l) { product in
                .init(action: "restore", changes: [.init(field: "id", old: String(oldID), new: String(product.id))], detail: product.name)
            }
            try await trash.markRestored(oldID, as: product.id)
            await safetyFiles.remove(area: TrashKeeper.trashArea, folder: item.folder)
            return pages.redirect(to: "/products/\(product.id)", flash: l("safety_flash_restored", ["name": product.name]))
        }
    }

    /// Registers saved values and images in the dialect's way; a rule the values break, or the
    /// API's refusal, is an error page (nothing was registered).
    func registerSaved(_ values: ProductFormValues, images: [ImageUpload], password: String, by requester: ProductWriter.Requester,
                       _ l: Localizer, note: @escaping @Sendable (ProductDetail) -> ProductWriter.Note) async throws -> ProductDetail {
        var (parsed, issues) = values.parse()
        parsed.name = parsed.name.trimmingCharacters(in: .whitespacesAndNewlines)
        let outcome: ProductDetail
        if writer.dialect.productPasswords {
            let price = ProductFormController.wholeMoney(parsed.price, field: "price", code: "price_whole", into: &issues)
            let discount = parsed.discountedPrice > 0
                ? ProductFormController.wholeMoney(parsed.discountedPrice, field: "discounted_price", code: "discount_whole", into: &issues) : nil
            let item = V1NewItem(title: parsed.name, descriptions: parsed.description, price: price ?? 1,
                                 currency: parsed.currency, stock: parsed.stock, discountedPrice: discount,
                                 password: password, images: images)
            issues = ProductFormController.merged(issues, item.validate())
            try Self.refuse(issues, l)
            do throws(OpenMarketError) {
                outcome = try await writer.create(item, by: requester, note: note)
            } catch {
                throw PageFailure(error, retryURL: nil)
            }
        } else {
            let draft = NewProduct(name: parsed.name, description: parsed.description, price: parsed.price,
                                   currency: parsed.currency, discountedPrice: parsed.discountedPrice,
                                   stock: parsed.stock, images: images)
            issues = ProductFormController.merged(issues, draft.validate())
            try Self.refuse(issues, l)
            do throws(OpenMarketError) {
                outcome = try await writer.create(draft, by: requester, note: note)
            } catch {
                throw PageFailure(error, retryURL: nil)
            }
        }
        return outcome
    }

    private static func refuse(_ issues: [FieldIssue], _ l: Localizer) throws {
        guard !issues.isEmpty else { return }
        let reasons = issues.map { l.issue($0, currency: .KRW) }.joined(separator: " ")
        throw PageFailure(status: 422, heading: "safety_restore_failed_heading", message: "safety_restore_refused",
                          arguments: ["reason": reasons])
    }

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/trash", .viewer, page: \.controllers.trashController) { try await $0.trashPage($1, $2) }
        routes.post("/trash/{id}/restore", .editor, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.trashController) { try await $0.restoreFromTrash($1, $2) }
    }
}
