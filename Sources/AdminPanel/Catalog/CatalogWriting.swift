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
