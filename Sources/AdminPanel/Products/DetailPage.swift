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
            await catalogGone(id)
            throw PageFailure(.notFound(message: ""), retryURL: nil)
        } catch {
            throw PageFailure(error, retryURL: "/products/\(id)")
        }
        await catalogSeen(product)
        let back = BackLink.validated(request.query["back"])
        let ownVendor = await vendor.id
        let canManage = await vendor.mayManage(productVendorID: product.vendorID)
        // The delete dialog is a POST form, so it needs the session's CSRF token.
        let visit = await visit(request, create: canManage)
        var view = presenter.detail(product, ownVendorID: ownVendor, visit.localizer)
        // A viewer sees no write controls at all.
        view.canManage = canManage && (visit.session?.role.canWrite ?? false)
        view.history = await productHistory(id, visit.localizer)
        view.csrfToken = visit.session?.csrfToken ?? ""
        if view.canManage { view.deleteAlternatives = await deleteAlternatives(product, visit: visit) }
        view.backURL = back ?? "/products"
        view.back = back.map(LinkView.init)
        view.editURL = BackLink.link("/products/\(id)/edit", back: back)
        view.deleteURL = BackLink.link("/products/\(id)/delete", back: back)
        view.duplicateURL = BackLink.link("/products/\(id)/duplicate", back: back)
        view.sales = await productSalesSection(product, canManage: canManage, visit: visit, form: saleForm)
        return try page(view, title: DisplayBounds.name(product.name), visit: visit, section: .products,
                        status: saleForm == nil ? 200 : 422)
    }
}
