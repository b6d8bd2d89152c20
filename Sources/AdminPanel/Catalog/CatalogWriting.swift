import Foundation
import OpenMarketCore

/// A controller that reads products keeps the local catalog copy current with what it finds: a
/// product re-read shows in every view as the API has it, one found deleted is gone from them
/// (its own writes go through `ProductWriter`). The controller stores the dependencies named
/// here; these methods only use them.
protocol CatalogWriting {
    var client: OpenMarketClient { get }
    var catalog: CatalogSync { get }
    var catalogDatabase: CatalogDatabase { get }
    var configuration: PanelConfiguration { get }
}

extension CatalogWriting {
    /// A product a page just read from the API: stored; if another client had changed it, that
    /// goes out as a live event (`"by": null`), as the sync would have sent it.
    func catalogSeen(_ product: ProductDetail) async {
        let fresh = CatalogProduct(product, seenAt: configuration.now())
        let before = catalog.copy.product(id: product.id)
        let changes = catalog.copy.record(fresh)
        if let before, !before.showsSameAs(fresh) { catalog.feed?.foundChanged(product.id) }
        try? await catalogDatabase.persist(changes, syncedAt: nil)
    }

    /// A product a page found deleted by someone else: gone from every view, and announced.
    func catalogGone(_ id: Int) async {
        let changes = catalog.copy.remove(id: id)
        if !changes.deleted.isEmpty { catalog.feed?.foundChanged(id) }
        try? await catalogDatabase.persist(changes, syncedAt: nil)
    }

    /// The product a page shows, read from the API; a failure becomes its error page with a retry link.
    func loadProduct(_ id: Int, retry: String) async throws -> ProductDetail {
        do {
            return try await client.product(id: id)
        } catch {
            throw PageFailure(error, retryURL: retry)
        }
    }
}
