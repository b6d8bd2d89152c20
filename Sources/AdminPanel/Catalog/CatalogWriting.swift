import Foundation
import OpenMarketCore

/// A controller that writes products keeps the local catalog copy current at once: a product it
/// registered, edited or re-read shows in every view, one it deleted is gone from them. The
/// controller stores the dependencies named here; these methods only use them.
protocol CatalogWriting {
    var client: OpenMarketClient { get }
    var catalog: CatalogSync { get }
    var catalogDatabase: CatalogDatabase { get }
    var configuration: PanelConfiguration { get }
}

extension CatalogWriting {
    /// A product the panel just registered, edited or re-read: every view shows it at once.
    func catalogRecord(_ product: ProductDetail) async {
        let changes = catalog.copy.record(CatalogProduct(product, seenAt: configuration.now()))
        catalog.feed?.stage(product.id)
        try? await catalogDatabase.persist(changes, syncedAt: nil)
    }

    /// A product the panel just deleted (or found deleted): gone from every view at once.
    func catalogRemove(_ id: Int) async {
        let changes = catalog.copy.remove(id: id)
        catalog.feed?.stage(id)
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
