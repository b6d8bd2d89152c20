import Foundation
import NetworkIO
import SQLiteStore

/// A v1 product as stored. The password stays inside the sandbox: no answer or log shows it.
struct V1ItemRecord: Sendable, Equatable {
    var id: Int
    var title: String
    var descriptions: String
    var price: Int
    var currency: String
    var stock: Int
    /// nil until a discount was sent once; a sent 0 is kept (and written) as 0.
    var discountedPrice: Int?
    var password: String
    /// Unix epoch seconds with a fraction, fixed at creation.
    var registrationDate: Double
    /// Media file names in upload order (one image and its thumbnail share a file).
    var imageFiles: [String]
}

/// The editable fields of a v1 item after a PATCH has been applied.
struct V1ItemFields: Sendable, Equatable {
    var title: String
    var descriptions: String
    var price: Int
    var currency: String
    var stock: Int
    var discountedPrice: Int?
}

extension V1ItemRecord {
    var fields: V1ItemFields {
        V1ItemFields(title: title, descriptions: descriptions, price: price, currency: currency, stock: stock,
                     discountedPrice: discountedPrice)
    }
}

/// The durable state of a `--dialect v1` sandbox: items and their image files, in their own
/// database file and media folder (`openmarket-v1.sqlite`, `media-v1/`), so v2 data in the same
/// data folder is untouched and neither store's orphan sweep can remove the other's files.
///
/// Same durability as `ProductStore`: WAL with `synchronous=FULL`, image files fsync'd and named
/// before the row that names them commits, unnamed files swept at the next start.
final class V1Store: Sendable {
    private let database: MediaDatabase
    var media: MediaDirectory { database.media }
    private var writer: SerialDatabase { database.writer }
    private var reader: SerialDatabase { database.reader }

    var generation: Int { database.generation }
    private func committed() { database.committed() }

    static let databaseFileName = "openmarket-v1.sqlite"

    /// Lets queued writes land, then closes the database (when the sandbox stops).
    func close() async { await database.close() }
    static let mediaFolderName = "media-v1"

    init(directory: URL) throws {
        // Private: it holds the items' passwords.
        database = try MediaDatabase(directory: directory, databaseFileName: Self.databaseFileName,
                                     mediaFolderName: Self.mediaFolderName, schema: Self.schema, label: "sandbox.v1",
                                     privateFile: true, fileNamesQuery: "SELECT file_name FROM v1_images")
    }

    private static let schema = """
        CREATE TABLE IF NOT EXISTS v1_items (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL,
            descriptions TEXT NOT NULL,
            price INTEGER NOT NULL,
            currency TEXT NOT NULL,
            stock INTEGER NOT NULL,
            discounted_price INTEGER,
            password TEXT NOT NULL,
            registration_date REAL NOT NULL);
        CREATE TABLE IF NOT EXISTS v1_images (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            item_id INTEGER NOT NULL REFERENCES v1_items(id) ON DELETE CASCADE,
            file_name TEXT NOT NULL UNIQUE);
        CREATE INDEX IF NOT EXISTS v1_images_by_item ON v1_images(item_id, id);
        """

    // MARK: Reading

    /// One page in ascending id order (page 1 holds the oldest items), with their images.
    func page(_ page: Int, size: Int) async throws -> [V1ItemRecord] {
        let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: size)
        guard !overflow else { return [] }
        return try await reader.perform { connection in
            var items: [V1ItemRecord] = []
            try connection.query(Self.itemSelect + " ORDER BY id LIMIT ? OFFSET ?",
                                 [.integer(size), .integer(offset)]) { items.append(Self.item(from: $0)) }
            for index in items.indices { items[index].imageFiles = try Self.files(of: items[index].id, on: connection) }
            return items
        }
    }

    func item(id: Int) async throws -> V1ItemRecord? {
        try await reader.perform { try Self.item(id: id, on: $0) }
    }

    private static let itemSelect = """
        SELECT id, title, descriptions, price, currency, stock, discounted_price, password, registration_date
        FROM v1_items
        """

    private static func item(from row: SQLiteRow) -> V1ItemRecord {
        V1ItemRecord(id: row.int(0), title: row.string(1), descriptions: row.string(2), price: row.int(3),
                     currency: row.string(4), stock: row.int(5), discountedPrice: row.isNull(6) ? nil : row.int(6),
                     password: row.string(7), registrationDate: row.double(8), imageFiles: [])
    }

    private static func files(of id: Int, on connection: SQLiteConnection) throws -> [String] {
        var files: [String] = []
        try connection.query("SELECT file_name FROM v1_images WHERE item_id = ? ORDER BY id", [.integer(id)]) {
            files.append($0.string(0))
        }
        return files
    }

    private static func item(id: Int, on connection: SQLiteConnection) throws -> V1ItemRecord? {
        var item: V1ItemRecord?
        try connection.query(itemSelect + " WHERE id = ?", [.integer(id)]) { item = Self.item(from: $0) }
        guard var found = item else { return nil }
        found.imageFiles = try files(of: id, on: connection)
        return found
    }

    /// True when no item was ever stored (the `--seed` condition).
    func isEmpty() throws -> Bool {
        try writer.performNow { connection in
            var count = 0
            try connection.query("SELECT COUNT(*) FROM v1_items") { count = $0.int(0) }
            return count == 0
        }
    }

    // MARK: Writing

    /// Inserts an item whose image files are already durable; `id` and the date are assigned here.
    func insert(_ item: V1ItemRecord) async throws -> V1ItemRecord {
        try await database.insert({ try Self.insertRows(item, on: $0) }, readBack: { try Self.item(id: $0, on: $1) })
    }

    /// Many items in one transaction (`--seed` at start-up, blocking).
    func insertAllNow(_ items: [V1ItemRecord]) throws {
        try database.insertAllNow(items) { try Self.insertRows($0, on: $1) }
    }

    private static func insertRows(_ item: V1ItemRecord, on connection: SQLiteConnection) throws -> Int {
        try connection.run("""
            INSERT INTO v1_items (title, descriptions, price, currency, stock, discounted_price, password, registration_date)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(item.title), .text(item.descriptions), .integer(item.price), .text(item.currency),
                  .integer(item.stock), item.discountedPrice.map { .integer($0) } ?? .null, .text(item.password),
                  .real(item.registrationDate)])
        let id = connection.lastInsertedRowID
        for file in item.imageFiles {
            try connection.run("INSERT INTO v1_images (item_id, file_name) VALUES (?, ?)", [.integer(id), .text(file)])
        }
        return id
    }

    /// Edits item `id` when `password` is its password. `change` sees the item as stored and
    /// returns its fields after the edit (or throws a `V1Failure`); `newImages`, when given,
    /// replace all images. Returns the item after the edit and the files it no longer uses.
    /// The check, the rules and the write happen in one write transaction, so concurrent edits
    /// cannot interleave.
    func update(id: Int, password: String, newImages: [String]?,
                change: @escaping @Sendable (V1ItemRecord) throws -> V1ItemFields) async throws -> V1ItemRecord {
        defer { committed() }
        let (updated, replaced) = try await writer.perform { connection in
            try connection.transaction {
                guard let current = try Self.item(id: id, on: connection) else { throw V1Failure.notFound }
                guard current.password == password else { throw V1Failure.wrongPassword }
                let fields = try change(current)
                try connection.run("""
                    UPDATE v1_items SET title = ?, descriptions = ?, price = ?, currency = ?, stock = ?,
                        discounted_price = ? WHERE id = ?
                    """, [.text(fields.title), .text(fields.descriptions), .integer(fields.price),
                          .text(fields.currency), .integer(fields.stock),
                          fields.discountedPrice.map { .integer($0) } ?? .null, .integer(id)])
                var replaced: [String] = []
                if let newImages {
                    replaced = current.imageFiles
                    try connection.run("DELETE FROM v1_images WHERE item_id = ?", [.integer(id)])
                    for file in newImages {
                        try connection.run("INSERT INTO v1_images (item_id, file_name) VALUES (?, ?)",
                                           [.integer(id), .text(file)])
                    }
                }
                guard let updated = try Self.item(id: id, on: connection) else { throw V1Failure.notFound }
                return (updated, replaced)
            }
        }
        // The rows no longer name them: the old URLs answer 404 from now on.
        media.remove(replaced)
        return updated
    }

    /// Deletes item `id` when `password` is its password; returns the item as it was.
    func delete(id: Int, password: String) async throws -> V1ItemRecord {
        defer { committed() }
        let deleted = try await writer.perform { connection in
            try connection.transaction {
                guard let current = try Self.item(id: id, on: connection) else { throw V1Failure.notFound }
                guard current.password == password else { throw V1Failure.wrongPassword }
                try connection.run("DELETE FROM v1_images WHERE item_id = ?", [.integer(id)])
                try connection.run("DELETE FROM v1_items WHERE id = ?", [.integer(id)])
                return current
            }
        }
        media.remove(deleted.imageFiles)
        return deleted
    }

    func integrityCheck() throws -> String {
        try writer.performNow { connection in
            var lines: [String] = []
            try connection.query("PRAGMA integrity_check") { lines.append($0.string(0)) }
            return lines.joined(separator: "\n")
        }
    }
}
