import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

extension PanelApp {
    /// `GET /products/{id}`: every image, every field; edit and delete for the vendor's own products.
    func detailPage(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try Self.productID(request)
        let product: ProductDetail
        do {
            product = try await client.product(id: id)
        } catch {
            throw PageFailure(error, retryURL: "/products/\(id)")
        }
        let ownVendor = await vendor.id
        let canManage = await vendor.mayManage(productVendorID: product.vendorID)
        // The delete dialog is a POST form, so it needs the session's CSRF token.
        let visit = await visit(request, create: canManage)
        var context = presenter.detail(product, ownVendorID: ownVendor, visit.localizer)
        context["can_manage"] = .bool(canManage)
        context["csrf_token"] = .string(visit.session?.csrfToken ?? "")
        context["back_url"] = "/products"
        context["alert"] = .null
        return try page("product", title: product.name, context: context, visit: visit, section: .products)
    }
}
