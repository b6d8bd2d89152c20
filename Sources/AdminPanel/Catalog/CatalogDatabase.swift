import Foundation
import OpenMarketCore
import SQLiteStore

/// The local catalog copy on disk, in `DATA/panel.sqlite` (tables `catalog_*`, beside the
/// people and activity tables of `PanelDatabase`), so a restarted panel shows its copy (with its
/// age) at once instead of waiting for a sync. The copy in memory is what pages read; this only
/// persists it, through the database's writer queue (never a thread of the concurrency pool).
final class CatalogDatabase: Sendable {
    private let writer: SerialDatabase

    static let schema = """
        CREATE TABLE IF NOT EXISTS catalog_products (
            id INTEGER PRIMARY KEY,
            vendor_id INTEGER NOT NULL,
            vendor_name TEXT,
            name TEXT NOT NULL,
            -- name and vendor name lowercased without white space: what a search matches
            search_key TEXT NOT NULL,
            thumbnail TEXT NOT NULL,
            currency TEXT NOT NULL,
            price REAL NOT NULL,
            bargain_price REAL NOT NULL,
            discounted_price REAL NOT NULL,
            stock INTEGER NOT NULL,
            created_at REAL NOT NULL,
            issued_at REAL NOT NULL,
            changed_at REAL NOT NULL);
        CREATE INDEX IF NOT EXISTS catalog_products_search ON catalog_products (search_key);
        CREATE TABLE IF NOT EXISTS catalog_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """

    @available(*, noasync, message: "start-up only")
    init(_ writer: SerialDatabase) throws {
        self.writer = writer
        try writer.performNow { try $0.execute(Self.schema) }
    }

    /// Everything stored, and when it was last synced.
    @available(*, noasync, message: "start-up only")
    func loadAll() throws -> (products: [CatalogProduct], syncedAt: Date?) {
        try writer.performNow { connection in
            var products: [CatalogProduct] = []
            try connection.query("""
                SELECT id, vendor_id, vendor_name, name, thumbnail, currency, price, bargain_price,
                       discounted_price, stock, created_at, issued_at, changed_at FROM catalog_products
                """) { row in
                products.append(CatalogProduct(
                    id: row.int(0), vendorID: row.int(1), vendorName: row.isNull(2) ? nil : row.string(2),
                    name: row.string(3), thumbnail: row.string(4), currency: Currency(rawValue: row.string(5)) ?? .KRW,
                    price: row.double(6), bargainPrice: row.double(7), discountedPrice: row.double(8), stock: row.int(9),
                    createdAt: Date(timeIntervalSince1970: row.double(10)), issuedAt: Date(timeIntervalSince1970: row.double(11)),
                    changedAt: Date(timeIntervalSince1970: row.double(12))))
            }
            var syncedAt: Date?
            try connection.query("SELECT value FROM catalog_meta WHERE key = 'synced_at'") { row in
                syncedAt = Double(row.string(0)).map(Date.init(timeIntervalSince1970:))
            }
            return (products, syncedAt)
        }
    }

    /// Stores what changed (one transaction); `syncedAt` after a completed sync.
    func persist(_ changes: CatalogCopy.Changes, syncedAt: Date?) async throws {
        guard !changes.isEmpty || syncedAt != nil else { return }
        try await writer.perform { connection in
            try connection.transaction {
                for product in changes.upserted { try Self.upsert(product, connection) }
                for id in changes.deleted { try connection.run("DELETE FROM catalog_products WHERE id = ?", [.integer(id)]) }
                if let syncedAt {
                    try connection.run("INSERT OR REPLACE INTO catalog_meta (key, value) VALUES ('synced_at', ?)",
                                       [.text(String(syncedAt.timeIntervalSince1970))])
                }
            }
        }
    }

    private static func upsert(_ product: CatalogProduct, _ connection: SQLiteConnection) throws {
        try connection.run("""
            INSERT OR REPLACE INTO catalog_products (id, vendor_id, vendor_name, name, search_key, thumbnail, currency,
                price, bargain_price, discounted_price, stock, created_at, issued_at, changed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.integer(product.id), .integer(product.vendorID), product.vendorName.map { .text($0) } ?? .null,
                  .text(product.name), .text(product.searchKey), .text(product.thumbnail), .text(product.currency.rawValue),
                  .real(product.price), .real(product.bargainPrice), .real(product.discountedPrice), .integer(product.stock),
                  .real(product.createdAt.timeIntervalSince1970), .real(product.issuedAt.timeIntervalSince1970),
                  .real(product.changedAt.timeIntervalSince1970)])
    }
}
