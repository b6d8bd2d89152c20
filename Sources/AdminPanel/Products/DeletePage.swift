import Foundation
import HTTPServer
import OpenMarketCore

extension ProductDeleteController {
    /// `GET /products/{id}/delete`: the password prompt for browsers without JavaScript.
    func deletePrompt(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let id = try Pages.productID(request)
        let product = try await loadProduct(id, retry: "/products/\(id)/delete")
        let context = context.withFormKey()
        let back = BackLink.validated(request.query["back"])
        var locked: String?
        let wait = await DeleteAttempt.wait(for: context.person, in: deleteGate)
        if let wait { locked = lockedMessage(wait, context.localizer) }
        var response = try await deletePage(product, context: context, back: back, alert: nil, passwordError: nil, locked: locked,
                                      status: locked == nil ? 200 : 429)
        if let wait { response.headers["Retry-After"] = AttemptGate.Wait(seconds: wait).header }
        return response
    }

    /// `POST /products/{id}/delete` with `password` and `csrf_token`: the dialect's two-step delete.
    /// Only a wrong password counts toward the limits (5 per person, 20 for the panel, per 10
    /// minutes), but every try reserves its slot *before* the API is called and gives it back
    /// unless the password was wrong: so simultaneous tries cannot exceed the limits. A checked
    /// password always answers 422 (wrong) or 303 (deleted); 429 only when it was not checked.
    /// The password is never logged or shown.
    func deleteProduct(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let id = try Pages.productID(request)
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let back = BackLink.validated(form["back"])
        let l = context.localizer

        let password = form["password"] ?? ""
        guard !password.isEmpty else {
            let product = try await loadProduct(id, retry: "/products/\(id)/delete")
            return try await deletePage(product, context: context, back: back, alert: l("delete_alert_password_empty"),
                                  passwordError: l("delete_error_password_empty"), locked: nil, status: 422)
        }
        let attempt: DeleteAttempt
        switch await DeleteAttempt.reserve(context.person, in: deleteGate) {
        case .failure(let wait):
            let product = try await loadProduct(id, retry: "/products/\(id)/delete")
            var response = try await deletePage(product, context: context, back: back, alert: nil, passwordError: nil,
                                          locked: lockedMessage(wait.seconds, l), status: 429)
            response.headers["Retry-After"] = wait.header
            return response
        case .success(let reserved):
            attempt = reserved
        }
        // The product and its images are kept in the trash first; if that fails nothing is deleted.
        let outcome: Result<ProductDetail, OpenMarketError>
        do throws(ProductWriter.DeleteFailure) {
            outcome = .success(try await upstream.writer.delete(id, password: password, by: .init(context, request)) { deleted in
                .init(action: "delete", detail: ActivityDetail("deleted", ["product_name": DisplayBounds.name(deleted.name)]).stored)
            })
        } catch {
            switch error {
            case .notKept(let failure):
                await attempt.release()
                let product = try await loadProduct(id, retry: "/products/\(id)/delete")
                return try await deletePage(product, context: context, back: back, alert: TrashKeeper.keepFailureMessage(failure, l),
                                            passwordError: nil, locked: nil, status: TrashKeeper.keepFailureStatus(failure))
            case .refused(let refusal):
                outcome = .failure(refusal)
            }
        }
        // Only a wrong password keeps its slot.
        if case .failure(.unauthorized) = outcome {} else { await attempt.release() }
        do throws(OpenMarketError) {
            let deleted = try outcome.get()
            return pages.redirect(to: back ?? "/products", flash: l("flash_deleted", ["name": DisplayBounds.name(deleted.name)]))
        } catch .unauthorized {
            await upstream.writer.record(.init(action: "delete-refused", detail: ActivityDetail(upstream.writer.dialect.wrongPasswordDetail).stored),
                                productID: id, by: .init(context, request))
            let left = await attempt.commitWrongPassword()
            let product = try await loadProduct(id, retry: "/products/\(id)/delete")
            switch left {
            case .paused(let wait):
                // The password was checked: the answer says it was wrong, then that tries are paused.
                var response = try await deletePage(product, context: context, back: back, alert: l("delete_alert_wrong_password_paused"),
                                              passwordError: nil, locked: lockedMessage(wait, l), status: 422)
                response.headers["Retry-After"] = AttemptGate.Wait(seconds: wait).header
                return response
            case .tries(let remaining):
                return try await deletePage(product, context: context, back: back,
                                      alert: l.plural("delete_alert_wrong_password", count: remaining),
                                      passwordError: l("delete_error_wrong_password"), locked: nil, status: 422)
            }
        } catch .forbidden {
            throw PageFailure.forbidden("failure_delete_not_yours")
        } catch .notFound {
            return pages.redirect(to: back ?? "/products", flash: l("flash_already_deleted"))
        } catch {
            let failure = PageFailure(error, retryURL: "/products/\(id)/delete")
            throw failure
        }
    }

    func lockedMessage(_ wait: TimeInterval, _ l: Localizer) -> String {
        l("delete_locked_message", ["limit": String(pages.configuration.deleteAttemptLimit),
                                    "window": l.duration(pages.configuration.deleteAttemptWindow), "wait": l.duration(wait)])
    }

    private func deletePage(_ product: ProductDetail, context: PanelContext, back: String?, alert: String?, passwordError: String?,
                            locked: String?, status: Int) async throws -> HTTPResponse {
        let l = context.localizer
        var view = deleteView(product, back: back, alert: alert, passwordError: passwordError, locked: locked,
                              csrfToken: context.csrfToken, l)
        view.deleteAlternatives = await DeleteAlternativesView.offered(for: product, context: context, people: people,
                                                                       dialect: upstream.dialect)
        return try pages.page(view, title: l("delete_title", ["name": DisplayBounds.name(product.name)]), context: context,
                        section: .products, status: status)
    }

    /// The delete prompt for one product (also built by the panel-answers fuzz target).
    func deleteView(_ product: ProductDetail, back: String?, alert: String?, passwordError: String?,
                    locked: String?, csrfToken: String, _ l: Localizer) -> ProductDeletePageView {
        let price = product.discountedPrice > 0 ? product.bargainPrice : product.price
        let productURL = BackLink.link("/products/\(product.id)", back: back)
        return ProductDeletePageView(
            id: product.id,
            back: back.map(LinkView.init),
            productURL: productURL,
            cancelURL: back ?? productURL,
            heading: l("delete_heading", ["name": DisplayBounds.name(product.name)]),
            summary: l("delete_summary", ["name": DisplayBounds.name(product.name), "price": l.money(price, product.currency),
                                          "stock": l.number(product.stock)]),
            trashNote: TextView(text: l("safety_delete_trash_note", ["days": l.number(pages.configuration.trashDays)])),
            thumbnail: product.images.isEmpty ? nil : ImageSourceView(src: presenter.media.panelPath(for: product.thumbnail) ?? ""),
            csrfToken: csrfToken,
            alert: alert.map(MessageView.init),
            passwordError: passwordError.map(MessageView.init),
            locked: locked.map(MessageView.init))
    }
}
