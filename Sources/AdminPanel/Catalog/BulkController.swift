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
    /// Wrong passwords per person and for the whole panel (a bulk delete is one try).
    let deleteGate: AttemptGate
    /// Counts the products in flight, the sheet's saves with them.
    let bulkGauge: ConcurrencyGauge
    /// The product list, shown again when a bulk action is refused (`CatalogController.listPage`).
    let listPage: @Sendable (HTTPRequest, PanelContext, BulkRefusal?) async throws -> HTTPResponse
    /// Booking a discount for each chosen product (`SaleBulk.swift`).
    let saleSections: SaleSections

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.post("/products/bulk", .editor, bodyLimit: .bytes(64 * 1024),
                    page: \.controllers.bulkController) { try await $0.bulkAction($1, $2) }
    }
}
