import Foundation
import OpenMarketCore

/// The local copy of the catalog in memory: the products by id, and a snapshot of them with
/// every order computed, rebuilt on the first read after a change.
///
/// The panel's own writes (register, edit, delete) land here at once. A full sync replaces the
/// rest, except products the panel wrote after that sync started (its pages may predate the
/// write): each write takes a generation number, each sync remembers the number it started at.
final class CatalogCopy: @unchecked Sendable {
    /// What a change did, for the database to persist.
    struct Changes: Sendable {
        var upserted: [CatalogProduct] = []
        var deleted: [Int] = []
        /// Of `upserted`, those the copy did not hold before.
        var added: Set<Int> = []
        var isEmpty: Bool { upserted.isEmpty && deleted.isEmpty }
    }

    private let lock = NSLock()
    private var products: [Int: CatalogProduct] = [:]
    /// Generation of the panel's last write per product (edits and deletes alike).
    private var localWrites: [Int: Int] = [:]
    private var generation = 0
    private var snapshotCache: CatalogSnapshot?
    private var syncedAtValue: Date?
    /// The products the last sync could not read (kept in memory only: the next sync reads them again).
    private var unreadableValue: [UnreadableProduct] = []

    init() {}

    /// When the data of the last completed sync was fetched (nil: never synced).
    var syncedAt: Date? { lock.withLock { syncedAtValue } }

    /// The generation a sync starts at.
    var currentGeneration: Int { lock.withLock { generation } }

    /// Fills the copy from the database at start-up.
    func load(_ stored: [CatalogProduct], syncedAt: Date?) {
        lock.withLock {
            products = Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
            syncedAtValue = syncedAt
            snapshotCache = nil
        }
    }

    func snapshot() -> CatalogSnapshot {
        lock.lock()
        defer { lock.unlock() }
        if let snapshotCache { return snapshotCache }
        let built = CatalogSnapshot(Array(products.values), unreadable: unreadableValue)
        snapshotCache = built
        return built
    }

    /// One product as the copy holds it now.
    func product(id: Int) -> CatalogProduct? { lock.withLock { products[id] } }

    /// The product as the panel just saw it (registered, edited or re-read).
    func record(_ product: CatalogProduct) -> Changes {
        lock.withLock {
            generation += 1
            localWrites[product.id] = generation
            var product = product
            if let old = products[product.id] {
                if old.sameValues(as: product) { product.changedAt = old.changedAt }
                if product.vendorName == nil { product.vendorName = old.vendorName }
            }
            products[product.id] = product
            snapshotCache = nil
            return Changes(upserted: [product])
        }
    }

    func remove(id: Int) -> Changes {
        lock.withLock {
            generation += 1
            localWrites[id] = generation
            guard products.removeValue(forKey: id) != nil else { return Changes() }
            snapshotCache = nil
            return Changes(deleted: [id])
        }
    }

    /// Replaces the copy with a full scan of the API that started at `generation`: new and
    /// changed products are stored, missing ones removed, the panel's later writes kept.
    func applySync(_ scanned: [CatalogProduct], unreadable: [UnreadableProduct] = [], startedAt start: Int,
                   fetchedAt: Date) -> Changes {
        lock.withLock {
            if unreadable != unreadableValue {
                unreadableValue = unreadable
                snapshotCache = nil
            }
            var changes = Changes()
            var seen = Set<Int>()
            seen.reserveCapacity(scanned.count)
            for var product in scanned {
                guard seen.insert(product.id).inserted else { continue }
                if let written = localWrites[product.id], written > start { continue }
                if let old = products[product.id] {
                    if old.sameValues(as: product) { continue }
                    if product.vendorName == nil { product.vendorName = old.vendorName }
                } else {
                    changes.added.insert(product.id)
                }
                products[product.id] = product
                changes.upserted.append(product)
            }
            for id in products.keys where !seen.contains(id) {
                if let written = localWrites[id], written > start { continue }
                products.removeValue(forKey: id)
                changes.deleted.append(id)
            }
            localWrites = localWrites.filter { $0.value > start }
            syncedAtValue = fetchedAt
            if !changes.isEmpty { snapshotCache = nil }
            return changes
        }
    }
}
