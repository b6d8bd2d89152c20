import Foundation
import HTTPServer
import OpenMarketCore

/// `/products/{id}/delete`: the confirmation, and the delete itself (kept in the trash first,
/// through `ProductWriter`), with the limit on wrong passwords.
///
/// Handler: `DeletePage.swift`. `PanelControllers` builds it with the dependencies below.
struct ProductDeleteController: Sendable, CatalogWriting {
    let pages: Pages
    let upstream: Upstream
    let presenter: ProductPresenter
    /// Wrong passwords per person and for the whole panel (shared with bulk deletes and v1 edits).
    let deleteGate: AttemptGate
    /// The owners an editor may ask for the password (`DeleteAlternativesView`).
    let people: PeopleStore

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/products/{id}/delete", .editor, page: \.controllers.productDeleteController) { try await $0.deletePrompt($1, $2) }
        routes.post("/products/{id}/delete", .editor, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.productDeleteController) { try await $0.deleteProduct($1, $2) }
    }
}
