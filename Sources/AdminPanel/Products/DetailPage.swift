import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

extension ProductController {
    /// `GET /products/{id}`: every image, every field; edit and delete for the vendor's own products.
    /// `saleForm`: a refused scheduled discount, shown again in its form (422).
    func detailPage(_ request: HTTPRequest, _ context: PanelContext, saleForm: SaleFormState? = nil) async throws -> HTTPResponse {
        let id = try Pages.productID(request)
        let product: ProductDetail
        do throws(OpenMarketError) {
            product = try await upstream.client.product(id: id)
        } catch .notFound {
            await catalogGone(id)
            throw PageFailure(.notFound(message: ""), retryURL: nil)
        } catch {
            throw PageFailure(error, retryURL: "/products/\(id)")
        }
        await catalogSeen(product)
        let back = BackLink.validated(request.query["back"])
        let ownVendor = await upstream.vendor.id
        let canManage = await upstream.vendor.mayManage(productVendorID: product.vendorID)
        // The delete dialog is a POST form, so it needs the session's CSRF token.
        let context = canManage ? context.withFormKey() : context
        var view = presenter.detail(product, ownVendorID: ownVendor, context.localizer)
        // A viewer sees no write controls at all.
        view.canManage = canManage && context.role.canWrite
        view.history = await history.productHistory(id, context.localizer)
        view.csrfToken = context.csrfToken
        if view.canManage {
            view.deleteAlternatives = await DeleteAlternativesView.offered(for: product, context: context, people: people,
                                                                           dialect: upstream.dialect)
        }
        view.backURL = back ?? "/products"
        view.back = back.map(LinkView.init)
        view.editURL = BackLink.link("/products/\(id)/edit", back: back)
        view.deleteURL = BackLink.link("/products/\(id)/delete", back: back)
        view.duplicateURL = BackLink.link("/products/\(id)/duplicate", back: back)
        view.sales = await saleSections.productSalesSection(product, canManage: canManage, context: context, form: saleForm)
        return try pages.page(view, title: DisplayBounds.name(product.name), context: context, section: .products,
                        status: saleForm == nil ? 200 : 422)
    }
}
