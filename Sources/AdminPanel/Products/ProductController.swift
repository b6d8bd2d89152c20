import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

/// `/products/{id}` (the product page) and `/products/{id}/delete` (the confirmation and the delete).
///
/// Handlers: `DetailPage.swift`, `DeletePage.swift`. `PanelApp` builds it with the dependencies below.
struct ProductController: Sendable, PageHandling, CatalogWriting {
    let pages: Pages
    let configuration: PanelConfiguration
    let client: OpenMarketClient
    let catalog: CatalogService
    /// Every product write: the API, the copy, the activity row, the trash keep.
    let writer: ProductWriter
    let presenter: ProductPresenter
    let deleteGate: AttemptGate
    let vendor: VendorIdentity
    let activityController: ActivityController
    let saleSections: SaleSections
    let trashKeeper: TrashKeeper
    let mediaController: MediaController

    /// The product's recent changes (`ActivityController`).
    func productHistory(_ id: Int, _ l: Localizer) async -> ProductHistoryView? {
        await activityController.productHistory(id, l)
    }

    /// The product's scheduled discounts and their form (`SaleSections`).
    func productSalesSection(_ product: ProductDetail, canManage: Bool, visit: Visit, form: SaleFormState?) async -> ProductSalesView {
        await saleSections.productSalesSection(product, canManage: canManage, visit: visit, form: form)
    }
}
