import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

/// `/products` (the list from the local copy), `/products/refresh`, `/products/export.csv`,
/// `/products/export.xlsx` and `/products/newest.json`.
///
/// Handlers: `ListPage.swift`, `CatalogPages.swift`. `PanelApp` builds it with the dependencies below.
struct CatalogController: Sendable, PageHandling {
    let pages: Pages
    let configuration: PanelConfiguration
    let client: OpenMarketClient
    let presenter: ProductPresenter
    let vendor: VendorIdentity
    let catalog: CatalogService
    let newestCheck: NewestProductCheck
    let saleSections: SaleSections
    let workbook: CatalogWorkbook

    /// The cookie remembering the list's last view (list or grid).
    static let viewCookie = "om_view"

    /// The list shows the sale marks and the discount action only where discounts can be scheduled.
    var salesAvailable: Bool { saleSections.salesAvailable }

    /// Each row's scheduled discount mark (`SaleSections`).
    func addSaleMarks(to view: inout ProductListView, _ l: Localizer) async {
        await saleSections.addSaleMarks(to: &view, l)
    }
}
