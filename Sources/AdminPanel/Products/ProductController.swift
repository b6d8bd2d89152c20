import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

/// `/products/{id}` (the product page) and `/products/{id}/delete` (the confirmation and the delete).
///
/// Handlers: `DetailPage.swift`, `DeletePage.swift`. `PanelControllers` builds it with the dependencies below.
struct ProductController: Sendable, CatalogWriting {
    let pages: Pages
    let upstream: Upstream
    let presenter: ProductPresenter
    let deleteGate: AttemptGate
    let history: ActivityRows
    let people: PeopleStore
    let saleSections: SaleSections
    let trashKeeper: TrashKeeper
    let mediaEviction: MediaEviction

    // Parts of the groups it holds, under the names its handlers use.
    var configuration: PanelConfiguration { pages.configuration }
    var client: OpenMarketClient { upstream.client }
    var catalog: CatalogService { upstream.catalogService }
    /// Every product write: the API, the copy, the activity row, the trash keep.
    var writer: ProductWriter { upstream.writer }
    var vendor: VendorIdentity { upstream.vendor }

    /// The product's recent changes (`ActivityRows`).
    func productHistory(_ id: Int, _ l: Localizer) async -> ProductHistoryView? {
        await history.productHistory(id, l)
    }

    /// The product's scheduled discounts and their form (`SaleSections`).
    func productSalesSection(_ product: ProductDetail, canManage: Bool, context: PanelContext, form: SaleFormState?) async -> ProductSalesView {
        await saleSections.productSalesSection(product, canManage: canManage, context: context, form: form)
    }

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/products/{id}", .viewer, page: \.controllers.productController) { try await $0.detailPage($1, $2) }
        routes.get("/products/{id}/delete", .editor, page: \.controllers.productController) { try await $0.deletePrompt($1, $2) }
        routes.post("/products/{id}/delete", .editor, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.productController) { try await $0.deleteProduct($1, $2) }
    }
}
