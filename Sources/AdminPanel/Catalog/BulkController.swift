import Foundation
import HTTPServer
import OpenMarketCore

/// `POST /products/bulk`: one action on the chosen products (price, stock, discount, delete), and its
/// result page.
///
/// Handlers: `BulkPage.swift`, `SaleBulk.swift`. `PanelControllers` builds it with the dependencies below.
struct BulkController: Sendable {
    let pages: Pages
    let configuration: PanelConfiguration
    let catalog: CatalogService
    /// Every product write: the API, the copy, the activity row, the trash keep.
    let writer: ProductWriter
    let deleteGate: AttemptGate
    let vendor: VendorIdentity
    let bulkGauge: ConcurrencyGauge
    let activity: ActivityLog
    let saleScheduler: SaleScheduler
    /// The product list, shown again when a bulk action is refused (`CatalogController.listPage`).
    let listPage: @Sendable (HTTPRequest, PanelContext, BulkRefusal?) async throws -> HTTPResponse
    let saleSections: SaleSections
    let mediaEviction: MediaEviction

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout RouteTable) {
        routes.post("/products/bulk", .editor, bodyLimit: .bytes(64 * 1024),
                    page: \.controllers.bulkController) { try await $0.bulkAction($1, $2) }
    }
}
