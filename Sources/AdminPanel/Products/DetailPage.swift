import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

extension ProductController {
    /// `GET /products/{id}`: every image, every field; edit and delete for the vendor's own products.
    /// `saleForm`: a refused scheduled discount, shown again in its form (422).
    func detailPage(_ request: HTTPRequest, saleForm: SaleFormState? = nil) async throws -> HTTPResponse {
        let id = try Self.productID(request)
        let product: ProductDetail
        do throws(OpenMarketError) {
            product = try await client.product(id: id)
        } catch .notFound {
            await catalogRemove(id)
            throw PageFailure(.notFound(message: ""), retryURL: nil)
        } catch {
            throw PageFailure(error, retryURL: "/products/\(id)")
        }
        await catalogRecord(product)
        let back = BackLink.validated(request.query["back"])
        let ownVendor = await vendor.id
        let canManage = await vendor.mayManage(productVendorID: product.vendorID)
        // The delete dialog is a POST form, so it needs the session's CSRF token.
        let visit = await visit(request, create: canManage)
        var context = presenter.detail(product, ownVendorID: ownVendor, visit.localizer)
        // A viewer sees no write controls at all.
        context["can_manage"] = .bool(canManage && (visit.session?.role.canWrite ?? false))
        context["history"] = await productHistory(id, visit.localizer)
        context["csrf_token"] = .string(visit.session?.csrfToken ?? "")
        context["back_url"] = .string(back ?? "/products")
        context["back"] = back.map { .object(["url": .string($0)]) } ?? .null
        context["edit_url"] = .string(BackLink.link("/products/\(id)/edit", back: back))
        context["delete_url"] = .string(BackLink.link("/products/\(id)/delete", back: back))
        context["duplicate_url"] = .string(BackLink.link("/products/\(id)/duplicate", back: back))
        context["alert"] = .null
        context["sales"] = await productSalesSection(product, canManage: canManage, visit: visit, form: saleForm)
        return try page("product", title: DisplayBounds.name(product.name), context: context, visit: visit, section: .products,
                        status: saleForm == nil ? 200 : 422)
    }
}
