import Foundation
import NetworkIO
import SQLiteStore

/// The sandbox's durable state: vendors, products, images and pending delete tokens in SQLite,
/// image bytes in `MediaDirectory`.
///
/// Two connections to one WAL database: a writer and a reader, each confined to its own serial
/// queue. Readers never wait for a writer's fsync, writers are serialized (so a PATCH reads,
/// checks and writes without a race), and every commit is durable before it returns
/// (`synchronous=FULL` syncs the WAL on each commit).
final class ProductStore: Sendable {
    private let database: MediaDatabase
    var media: MediaDirectory { database.media }
    private var writer: SerialDatabase { database.writer }
    private var reader: SerialDatabase { database.reader }

    /// Grows after every committed change to products, so cached reads can tell they are stale.
    var generation: Int { database.generation }
    private func committed() { database.committed() }

    static let databaseFileName = "openmarket.sqlite"

    /// Lets queued writes land, then closes the database (when the sandbox stops).
    func close() async { await database.close() }

    init(directory: URL) throws {
        database = try MediaDatabase(directory: directory, databaseFileName: Self.databaseFileName, mediaFolderName: "media",
                                     schema: Self.schema, label: "sandbox.db", fileNamesQuery: "SELECT file_name FROM images")
    }

    private static let schema = """
        CREATE TABLE IF NOT EXISTS vendors (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,
            name_fold TEXT NOT NULL,
            identifier TEXT NOT NULL UNIQUE,
            secret TEXT NOT NULL,
            created_day TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS products (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            vendor_id INTEGER NOT NULL REFERENCES vendors(id),
            name TEXT NOT NULL,
            name_fold TEXT NOT NULL,
            description TEXT NOT NULL,
            currency TEXT NOT NULL,
            price REAL NOT NULL,
            discounted_price REAL NOT NULL,
            stock INTEGER NOT NULL,
            created_day TEXT NOT NULL,
            issued_day TEXT NOT NULL,
            thumbnail_image_id INTEGER,
            thumbnail_file TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS images (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
            file_name TEXT NOT NULL UNIQUE,
            issued_day TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS images_by_product ON images(product_id, id);
        CREATE TABLE IF NOT EXISTS delete_tokens (
            token TEXT PRIMARY KEY,
            product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
            kind TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL);
        """

    // MARK: Settings and vendors (start-up, blocking)

    func setting(_ key: String) throws -> String? {
        try writer.performNow { connection in
            var value: String?
            try connection.query("SELECT value FROM settings WHERE key = ?", [.text(key)]) { value = $0.string(0) }
            return value
        }
    }

    func setSetting(_ key: String, _ value: String) throws {
        try writer.performNow { connection in
            try connection.run("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               [.text(key), .text(value)])
        }
    }

    /// Adds a vendor, or updates the name and secret of the one with this identifier.
    @discardableResult
    func upsertVendor(name: String, identifier: String, secret: String) throws -> VendorRecord {
        defer { committed() }   // a vendor's name shows in pages
        return try writer.performNow { connection in
            try connection.run("""
                INSERT INTO vendors (name, name_fold, identifier, secret, created_day) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(identifier) DO UPDATE SET name = excluded.name, name_fold = excluded.name_fold, secret = excluded.secret
                """, [.text(name), .text(name.lowercased()), .text(identifier), .text(secret), .text(Day.today().description)])
            guard let vendor = try Self.vendor(identifier: identifier, on: connection) else {
                throw SQLiteError(code: 0, message: "vendor vanished after upsert")
            }
            return vendor
        }
    }

    func vendor(id: Int) throws -> VendorRecord? {
        try writer.performNow { connection in
            var vendor: VendorRecord?
            try connection.query(Self.vendorSelect + " WHERE id = ?", [.integer(id)]) { vendor = Self.vendor(from: $0) }
            return vendor
        }
    }

    /// The vendor a request's `identifier` header names (the check on every write).
    func vendor(identifier: String) async throws -> VendorRecord? {
        try await reader.perform { try Self.vendor(identifier: identifier, on: $0) }
    }

    private static let vendorSelect = "SELECT id, name, identifier, secret, created_day FROM vendors"

    private static func vendor(identifier: String, on connection: SQLiteConnection) throws -> VendorRecord? {
        var vendor: VendorRecord?
        try connection.query(vendorSelect + " WHERE identifier = ?", [.text(identifier)]) { vendor = Self.vendor(from: $0) }
        return vendor
    }

    private static func vendor(from row: SQLiteRow) -> VendorRecord {
        VendorRecord(id: row.int(0), name: row.string(1), identifier: row.string(2), secret: row.string(3),
                     createdDay: Day(stored: row.string(4)) ?? Day.today())
    }

    // MARK: Reading products

    /// One page, newest first, and how many products match in all.
    /// `search` matches a case-insensitive substring of the product's or the vendor's name;
    /// `instr` on lowercased copies keeps `%` and `_` ordinary and folds non-ASCII letters too.
    func page(search: String?, offset: Int, limit: Int) async throws -> (total: Int, products: [ProductRecord]) {
        let needle = search.map { $0.lowercased() }
        return try await reader.perform { connection in
            var total = 0
            var products: [ProductRecord] = []
            if let needle, !needle.isEmpty {
                try connection.query("""
                    SELECT COUNT(*) FROM products p JOIN vendors v ON v.id = p.vendor_id
                    WHERE instr(p.name_fold, ?1) > 0 OR instr(v.name_fold, ?1) > 0
                    """, [.text(needle)]) { total = $0.int(0) }
                guard total > offset else { return (total, []) }
                try connection.query(Self.productSelect + """
                     WHERE instr(p.name_fold, ?1) > 0 OR instr(v.name_fold, ?1) > 0
                     ORDER BY p.id DESC LIMIT ?2 OFFSET ?3
                    """, [.text(needle), .integer(limit), .integer(offset)]) { products.append(Self.product(from: $0)) }
            } else {
                try connection.query("SELECT COUNT(*) FROM products") { total = $0.int(0) }
                guard total > offset else { return (total, []) }
                try connection.query(Self.productSelect + " ORDER BY p.id DESC LIMIT ? OFFSET ?",
                                     [.integer(limit), .integer(offset)]) { products.append(Self.product(from: $0)) }
            }
            return (total, products)
        }
    }

    /// A product with its images, or nil when there is none with this id.
    func product(id: Int) async throws -> ProductRecord? {
        try await reader.perform { try Self.product(id: id, on: $0) }
    }

    private static let productSelect = """
        SELECT p.id, p.vendor_id, v.name, v.created_day, p.name, p.description, p.currency, p.price,
               p.discounted_price, p.stock, p.created_day, p.issued_day, p.thumbnail_file, p.thumbnail_image_id
        FROM products p JOIN vendors v ON v.id = p.vendor_id
        """

    private static func product(from row: SQLiteRow) -> ProductRecord {
        ProductRecord(
            id: row.int(0), vendorID: row.int(1), vendorName: row.string(2),
            vendorCreatedDay: Day(stored: row.string(3)) ?? Day.today(),
            fields: ProductFields(name: row.string(4), description: row.string(5), currency: row.string(6),
                                  price: row.double(7), discountedPrice: row.double(8), stock: row.int(9)),
            createdDay: Day(stored: row.string(10)) ?? Day.today(),
            issuedDay: Day(stored: row.string(11)) ?? Day.today(),
            thumbnailFile: row.string(12), thumbnailImageID: row.isNull(13) ? nil : row.int(13))
    }

    private static func product(id: Int, on connection: SQLiteConnection) throws -> ProductRecord? {
        var product: ProductRecord?
        try connection.query(productSelect + " WHERE p.id = ?", [.integer(id)]) { product = Self.product(from: $0) }
        guard var found = product else { return nil }
        try connection.query("SELECT id, file_name, issued_day FROM images WHERE product_id = ? ORDER BY id",
                             [.integer(id)]) { row in
            found.images.append(ImageRecord(id: row.int(0), fileName: row.string(1),
                                            issuedDay: Day(stored: row.string(2)) ?? Day.today()))
        }
        return found
    }

    // MARK: Writing products

    /// Inserts a product whose image files are already durable; returns it as stored.
    func insert(_ draft: ProductDraft) async throws -> ProductRecord {
        try await database.insert({ try Self.insertRows(draft, on: $0) }, readBack: { try Self.product(id: $0, on: $1) })
    }

    /// Inserts many products in one transaction (sample data at start-up, blocking).
    func insertAllNow(_ drafts: [ProductDraft]) throws {
        try database.insertAllNow(drafts) { try Self.insertRows($0, on: $1) }
    }

    private static func insertRows(_ draft: ProductDraft, on connection: SQLiteConnection) throws -> Int {
        let today = Day.today().description
        let fields = draft.fields
        try connection.run("""
            INSERT INTO products (vendor_id, name, name_fold, description, currency, price, discounted_price,
                                  stock, created_day, issued_day, thumbnail_image_id, thumbnail_file)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)
            """, [.integer(draft.vendorID), .text(fields.name), .text(fields.name.lowercased()),
                  .text(fields.description), .text(fields.currency), .real(fields.price),
                  .real(fields.discountedPrice), .integer(fields.stock), .text(today), .text(today),
                  .text(draft.imageFiles.first ?? "")])
        let id = connection.lastInsertedRowID
        for file in draft.imageFiles {
            try connection.run("INSERT INTO images (product_id, file_name, issued_day) VALUES (?, ?, ?)",
                               [.integer(id), .text(file), .text(today)])
        }
        return id
    }

    /// Edits a product of `vendorID`: `change` sees the product as stored and returns it edited
    /// (its fields and thumbnail; or throws an `APIFailure`), all within one write transaction.
    func update(id: Int, vendorID: Int,
                change: @escaping @Sendable (ProductRecord) throws -> ProductRecord) async throws -> ProductRecord {
        defer { committed() }
        return try await writer.perform { connection in
            try connection.transaction {
                guard let current = try Self.product(id: id, on: connection) else { throw APIFailure.productNotFound(id) }
                guard current.vendorID == vendorID else { throw APIFailure.notYourProduct }
                let edited = try change(current)
                let fields = edited.fields
                let thumbnailFile = current.images.first { $0.id == edited.thumbnailImageID }?.fileName
                    ?? current.thumbnailFile
                try connection.run("""
                    UPDATE products SET name = ?, name_fold = ?, description = ?, currency = ?, price = ?,
                        discounted_price = ?, stock = ?, issued_day = ?, thumbnail_image_id = ?, thumbnail_file = ?
                    WHERE id = ?
                    """, [.text(fields.name), .text(fields.name.lowercased()), .text(fields.description),
                          .text(fields.currency), .real(fields.price), .real(fields.discountedPrice),
                          .integer(fields.stock), .text(Day.today().description),
                          edited.thumbnailImageID.map { .integer($0) } ?? .null, .text(thumbnailFile), .integer(id)])
                guard let updated = try Self.product(id: id, on: connection) else { throw APIFailure.productNotFound(id) }
                return updated
            }
        }
    }

    /// The kinds of single-use delete tokens: a v2a product secret or a v2b archive path.
    enum TokenKind: String, Sendable { case productSecret = "secret", archive = "archive" }

    /// Issues a fresh single-use token that allows deleting product `id` of `vendorID`.
    func issueToken(_ kind: TokenKind, productID id: Int, vendorID: Int) async throws -> String {
        let token = kind == .productSecret ? RandomToken.uuidVersion1Shaped() : RandomToken.hex(byteCount: 16)
        try await writer.perform { connection in
            try connection.transaction {
                guard let current = try Self.product(id: id, on: connection) else { throw APIFailure.productNotFound(id) }
                guard current.vendorID == vendorID else { throw APIFailure.notYourProduct }
                try connection.run("INSERT INTO delete_tokens (token, product_id, kind) VALUES (?, ?, ?)",
                                   [.text(token), .integer(id), .text(kind.rawValue)])
            }
        }
        return token
    }

    /// The product an archive token (v2b) stands for, if the token is pending.
    func productID(forArchiveToken token: String) async throws -> Int? {
        try await reader.perform { connection in
            var id: Int?
            try connection.query("SELECT product_id FROM delete_tokens WHERE token = ? AND kind = ?",
                                 [.text(token), .text(TokenKind.archive.rawValue)]) { id = $0.int(0) }
            return id
        }
    }

    /// Deletes product `id` of `vendorID` with a pending token, which is used up; returns the
    /// product as it was. A token that is not pending for this product is `wrongToken`.
    func delete(id: Int, vendorID: Int, token: String, kind: TokenKind, wrongToken: APIFailure) async throws -> ProductRecord {
        defer { committed() }
        let deleted = try await writer.perform { connection in
            try connection.transaction {
                guard let current = try Self.product(id: id, on: connection) else { throw APIFailure.productNotFound(id) }
                guard current.vendorID == vendorID else { throw APIFailure.notYourProduct }
                try connection.run("DELETE FROM delete_tokens WHERE token = ? AND product_id = ? AND kind = ?",
                                   [.text(token), .integer(id), .text(kind.rawValue)])
                guard connection.changes == 1 else { throw wrongToken }
                try connection.run("DELETE FROM images WHERE product_id = ?", [.integer(id)])
                try connection.run("DELETE FROM delete_tokens WHERE product_id = ?", [.integer(id)])
                try connection.run("DELETE FROM products WHERE id = ?", [.integer(id)])
                return current
            }
        }
        // The rows are gone for good; now the files may go (a crash here leaves orphans for the next start).
        media.remove(deleted.images.map(\.fileName))
        return deleted
    }

    /// True when no product was ever stored (the `--seed` condition: fill only an empty store).
    func isEmpty() throws -> Bool {
        try writer.performNow { connection in
            var count = 0
            try connection.query("SELECT COUNT(*) FROM products") { count = $0.int(0) }
            return count == 0
        }
    }

    /// `PRAGMA integrity_check`'s answer ("ok" when the file is sound).
    func integrityCheck() throws -> String {
        try writer.performNow { connection in
            var lines: [String] = []
            try connection.query("PRAGMA integrity_check") { lines.append($0.string(0)) }
            return lines.joined(separator: "\n")
        }
    }
}
