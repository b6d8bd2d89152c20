import Foundation
import HTTPServer
import OpenMarketCore

/// `POST /products/bulk`: one action on the chosen products (price, stock, discount, delete), and its
/// result page.
///
/// Handlers: `BulkPage.swift`, `SaleBulk.swift`. `PanelControllers` builds it with the dependencies below.
struct BulkController: Sendable {
    let pages: Pages
    let upstream: Upstream
    let deleteGate: AttemptGate
    let bulkGauge: ConcurrencyGauge
    let activity: ActivityLog
    let saleScheduler: SaleScheduler
    /// The product list, shown again when a bulk action is refused (`CatalogController.listPage`).
    let listPage: @Sendable (HTTPRequest, PanelContext, BulkRefusal?) async throws -> HTTPResponse
    let saleSections: SaleSections
    let mediaEviction: MediaEviction

    // Parts of the groups it holds, under the names its handlers use.
    var configuration: PanelConfiguration { pages.configuration }
    var catalog: CatalogService { upstream.catalogService }
    /// Every product write: the API, the copy, the activity row, the trash keep.
    var writer: ProductWriter { upstream.writer }
    var vendor: VendorIdentity { upstream.vendor }

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.post("/products/bulk", .editor, bodyLimit: .bytes(64 * 1024),
                    page: \.controllers.bulkController) { try await $0.bulkAction($1, $2) }
    }
}
