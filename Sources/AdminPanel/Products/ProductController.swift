import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

/// `/products/{id}`: the product page, with its history, its scheduled discounts and, for people
/// who may change it, what to offer before a delete.
///
/// Handler: `DetailPage.swift`. `PanelControllers` builds it with the dependencies below.
struct ProductController: Sendable, CatalogWriting {
    let pages: Pages
    let upstream: Upstream
    let presenter: ProductPresenter
    /// The product's recent changes.
    let history: ActivityRows
    /// The owners an editor may ask for the password (`DeleteAlternativesView`).
    let people: PeopleStore
    let saleSections: SaleSections

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/products/{id}", .viewer, page: \.controllers.productController) { try await $0.detailPage($1, $2) }
    }
}
