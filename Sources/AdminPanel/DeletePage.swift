import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

extension PanelApp {
    /// `GET /products/{id}/delete`: the password prompt for browsers without JavaScript.
    func deletePrompt(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try Self.productID(request)
        let product = try await loadProduct(id, retry: "/products/\(id)/delete")
        let visit = await visit(request, create: true)
        let back = BackLink.validated(request.query["back"])
        var locked: String?
        if let session = visit.session, let wait = await sessions.deleteRetryAfter(for: session.id) {
            locked = lockedMessage(wait)
        }
        return try deletePage(product, visit: visit, back: back, alert: nil, passwordError: nil, locked: locked,
                              status: locked == nil ? 200 : 429)
    }

    /// `POST /products/{id}/delete` with `password` and `csrf_token`: the dialect's two-step delete.
    /// Only a wrong password counts toward the limit; the password is never logged or shown.
    func deleteProduct(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try Self.productID(request)
        let form = try await request.urlencodedForm()
        let session = try await requireCSRF(request, formToken: form["csrf_token"])
        let visit = Visit(session: session)
        let back = BackLink.validated(form["back"])

        if let wait = await sessions.deleteRetryAfter(for: session.id) {
            let product = try await loadProduct(id, retry: "/products/\(id)/delete")
            return try deletePage(product, visit: visit, back: back, alert: nil, passwordError: nil,
                                  locked: lockedMessage(wait), status: 429)
        }
        let password = form["password"] ?? ""
        guard !password.isEmpty else {
            let product = try await loadProduct(id, retry: "/products/\(id)/delete")
            return try deletePage(product, visit: visit, back: back, alert: "Enter the vendor password to delete this product.",
                                  passwordError: "Enter the vendor password.", locked: nil, status: 422)
        }
        do throws(OpenMarketError) {
            let deleted = try await client.delete(id: id, password: password)
            await catalogRemove(id)
            return await redirect(to: back ?? "/products", flash: "Deleted “\(deleted.name)”.", session: session)
        } catch .unauthorized {
            let (remaining, wait) = await sessions.recordWrongPassword(for: session.id)
            let product = try await loadProduct(id, retry: "/products/\(id)/delete")
            if let wait {
                return try deletePage(product, visit: visit, back: back, alert: nil, passwordError: nil,
                                      locked: lockedMessage(wait), status: 429)
            }
            let left = remaining == 1 ? "1 more try" : "\(remaining) more tries"
            return try deletePage(product, visit: visit, back: back,
                                  alert: "That password is not right. The product was not deleted. You have \(left) before a pause.",
                                  passwordError: "The password is not right. Type it again.", locked: nil, status: 422)
        } catch .forbidden {
            throw PageFailure.forbidden("This product belongs to another vendor, so this panel cannot delete it.")
        } catch .notFound {
            await catalogRemove(id)
            return await redirect(to: back ?? "/products", flash: "That product was already deleted.", session: session)
        } catch {
            let failure = PageFailure(error, retryURL: "/products/\(id)/delete")
            throw failure
        }
    }

    func loadProduct(_ id: Int, retry: String) async throws -> ProductDetail {
        do {
            return try await client.product(id: id)
        } catch {
            throw PageFailure(error, retryURL: retry)
        }
    }

    func lockedMessage(_ wait: TimeInterval) -> String {
        "For safety, deleting is paused after \(configuration.deleteAttemptLimit) wrong passwords in "
            + "\(AttemptLimiter.describe(configuration.deleteAttemptWindow)). Try again in \(AttemptLimiter.describe(wait))."
    }

    private func deletePage(_ product: ProductDetail, visit: Visit, back: String?, alert: String?, passwordError: String?,
                            locked: String?, status: Int) throws -> HTTPResponse {
        let price = product.discountedPrice > 0 ? product.bargainPrice : product.price
        let productURL = BackLink.link("/products/\(product.id)", back: back)
        let context: [String: TemplateValue] = [
            "id": .int(product.id),
            "back": back.map { .object(["url": .string($0)]) } ?? .null,
            "product_url": .string(productURL),
            "cancel_url": .string(back ?? productURL),
            "name": .string(product.name),
            "price": .string(Money.format(price, product.currency)),
            "stock": .int(product.stock),
            "thumbnail": product.images.isEmpty ? .null : .object(["src": presenter.imageSource(product.thumbnail)]),
            "csrf_token": .string(visit.session?.csrfToken ?? ""),
            "alert": alert.map { .object(["message": .string($0)]) } ?? .null,
            "password_error": passwordError.map { .object(["message": .string($0)]) } ?? .null,
            "locked": locked.map { .object(["message": .string($0)]) } ?? .null,
        ]
        return try page("product_delete", title: "Delete \(product.name)", context: context, visit: visit,
                        section: .products, status: status)
    }
}
