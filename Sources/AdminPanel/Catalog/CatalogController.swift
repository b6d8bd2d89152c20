import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

/// `/products` (the list from the local copy), `/products/refresh`, `/products/export.csv`,
/// `/products/export.xlsx`, the export for editing (`/products/export-edit.csv`, `.xlsx`) and
/// `/products/newest.json`.
///
/// Handlers: `ListPage.swift`, `CatalogPages.swift`, `EditExportPages.swift`. `PanelControllers` builds it with the dependencies below.
struct CatalogController: Sendable {
    let pages: Pages
    let upstream: Upstream
    let presenter: ProductPresenter
    let newestCheck: NewestProductCheck
    let saleSections: SaleSections
    let workbook: CatalogWorkbook

    /// The cookie remembering the list's last view (list or grid).
    static let viewCookie = "om_view"

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/products", .viewer, page: \.controllers.catalogController) { try await $0.listPage($1, $2) }
        routes.get("/products/refresh", .viewer, page: \.controllers.catalogController) { try await $0.refreshCatalog($1, $2) }
        routes.get("/products/export.csv", .viewer, page: \.controllers.catalogController) { try await $0.exportCatalog($1, $2) }
        routes.get("/products/export.xlsx", .viewer, page: \.controllers.catalogController) { try await $0.exportWorkbook($1, $2) }
        routes.get("/products/export-edit.csv", .editor, page: \.controllers.catalogController) { try await $0.exportForEditing($1, $2) }
        routes.get("/products/export-edit.xlsx", .editor, page: \.controllers.catalogController) { try await $0.exportWorkbookForEditing($1, $2) }
        routes.get("/products/newest.json", .viewer, plain: \.controllers.catalogController) { try await $0.newestProduct($1, $2) }
    }
}
