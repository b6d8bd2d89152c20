import Foundation
import HTTPServer
import OpenMarketCore

/// `GET /products/sheet` and `POST /products/sheet`: many products' name, price, discount and
/// stock on one screen, saved at once (what Smart Store calls 일괄수정).
///
/// v2 dialects only (`PanelDialect.hasVendor`): in v1 every change needs that product's own
/// password, which a sheet of many products could only offer by storing passwords.
///
/// Handlers: `SheetPage.swift`, `SheetSave.swift`. `PanelControllers` builds it with the dependencies below.
struct SheetController: Sendable, CatalogWriting {
    let pages: Pages
    let upstream: Upstream
    /// Shared with bulk actions: a sheet's save is a bulk run of its own kind.
    let bulkGauge: ConcurrencyGauge

    /// The sheet's page sizes: the list's, and 200 for a whole stock count on one screen.
    static let pageSizes = CatalogQuery.pageSizes + [200]
    /// The most products one save may name (one full page).
    static let maxRows = 200

    /// The list's query, with the sheet's larger page size allowed.
    static func query(_ value: (String) -> String?) -> CatalogQuery {
        var query = CatalogQuery(value, defaultView: .list)
        query.view = .list
        if let size = value("per_page").flatMap(Int.init), pageSizes.contains(size) { query.perPage = size }
        return query
    }

    /// `/products/sheet?…` for this query at another page or page size.
    static func url(_ query: CatalogQuery, page: Int? = nil) -> String {
        "/products/sheet?" + CatalogQuery.encoded(query.items(page: page).filter { $0.0 != "view" })
    }

    /// The list showing the same products: its own page sizes, the page holding this page's first row.
    static func listURL(_ query: CatalogQuery) -> String {
        var list = query
        if !CatalogQuery.pageSizes.contains(query.perPage) {
            list.perPage = CatalogQuery.pageSizes.last ?? 20
            list.page = (query.page - 1) * query.perPage / list.perPage + 1
        }
        return list.url()
    }

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/products/sheet", .viewer, page: \.controllers.sheetController) { try await $0.sheetPage($1, $2) }
        routes.post("/products/sheet", .editor, bodyLimit: .bytes(1024 * 1024),
                    page: \.controllers.sheetController) { try await $0.saveSheet($1, $2) }
    }
}
