import Foundation
import OpenMarketCore

/// The local catalog copy behind one door: its views (`copy`), keeping it current from the API
/// (`CatalogSync`), storing it (`CatalogDatabase`), and what the panel itself learns about a
/// product (a write, a re-read, a product found deleted), with the live events each sends.
/// Controllers and the `ProductWriter` hold this instead of the copy's own types.
struct CatalogService: Sendable {
    let sync: CatalogSync
    let database: CatalogDatabase
    /// How old the copy may be when a page that reads it opens (`--catalog-max-age`).
    let maxAge: TimeInterval
    let now: @Sendable () -> Date

    /// The products as the panel knows them: sorted, filtered and searched views.
    var copy: CatalogCopy { sync.copy }
    var status: CatalogSync.Status { get async { await sync.status } }

    /// Syncs first when the copy is older than `maxAge` (or never synced).
    func ensureFresh() async { await sync.ensureFresh(maxAge: maxAge) }
    /// A page used the copy: its background sync keeps running.
    func touch() async { await sync.touch() }
    /// A sync, or the one already running.
    @discardableResult
    func sync() async -> Bool { await sync.sync() }
    /// A sync now (the refresh button), waiting for one already running first.
    @discardableResult
    func syncStartingNow() async -> Bool { await sync.syncStartingNow() }
    func stop() async { await sync.stop() }

    /// A product the panel just wrote: every view shows it at once; its activity row sends the event.
    func wrote(_ product: ProductDetail) async {
        let changes = copy.record(CatalogProduct(product, seenAt: now()))
        sync.feed?.stage(product.id)
        try? await database.persist(changes, syncedAt: nil)
    }

    /// A product the panel just deleted: gone from every view; its activity row sends the event.
    func deleted(_ id: Int) async {
        let changes = copy.remove(id: id)
        sync.feed?.stage(id)
        try? await database.persist(changes, syncedAt: nil)
    }

    /// A product a page just read from the API: stored; if another client had changed it, that
    /// goes out as a live event (`"by": null`), as the sync would have sent it.
    func seen(_ product: ProductDetail) async {
        let fresh = CatalogProduct(product, seenAt: now())
        let before = copy.product(id: product.id)
        let changes = copy.record(fresh)
        if let before, !before.showsSameAs(fresh) { sync.feed?.foundChanged(product.id) }
        try? await database.persist(changes, syncedAt: nil)
    }

    /// A product a page or a write found deleted by someone else: gone from every view, and announced.
    func gone(_ id: Int) async {
        let changes = copy.remove(id: id)
        if !changes.deleted.isEmpty { sync.feed?.foundChanged(id) }
        try? await database.persist(changes, syncedAt: nil)
    }
}
