import Foundation
import SQLiteStore

/// Imports and each row's outcome, in `DATA/panel.sqlite` (tables `import_*`). A row's state:
/// `pending` (never tried), `sending` (the create or update is on its way: written *before* the
/// API is asked, so after a crash or a lost answer the next apply looks for the product before
/// creating it again), `done` (with the product id) or `failed` (with the reason; tried again on
/// the next apply).
final class ImportStore: Sendable {
    enum State: String, Sendable { case pending, sending, done, failed }

    struct RowState: Sendable, Equatable {
        var line: Int
        var state: State
        var productID: Int?
        var reason: String
        var intentAt: Date?
        /// The highest product id the panel knew when the create was sent (a product the import
        /// created has a higher one).
        var intentAfterID: Int?
    }

    struct Batch: Sendable {
        var id: String
        var person: String
        var createdAt: Date
        var fileName: String
        var plan: ImportPlan
        var rows: [Int: RowState]
    }

    static let schema = """
        CREATE TABLE IF NOT EXISTS import_batches (
            id TEXT PRIMARY KEY,
            person TEXT NOT NULL,
            created_at REAL NOT NULL,
            file_name TEXT NOT NULL,
            plan TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS import_rows (
            import_id TEXT NOT NULL REFERENCES import_batches(id) ON DELETE CASCADE,
            line INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'done', 'failed')),
            product_id INTEGER,
            reason TEXT NOT NULL DEFAULT '',
            intent_at REAL,
            intent_after_id INTEGER,
            PRIMARY KEY (import_id, line));
        """

    private let writer: SerialDatabase

    @available(*, noasync, message: "start-up only")
    init(_ writer: SerialDatabase) throws {
        self.writer = writer
        try writer.performNow { try $0.execute(Self.schema) }
    }

    func create(id: String, person: String, fileName: String, plan: ImportPlan, at time: Date) async throws {
        let json = String(decoding: try JSONEncoder().encode(plan), as: UTF8.self)
        let lines = plan.applicable.map(\.line)
        try await writer.perform { connection in
            try connection.transaction {
                try connection.run("INSERT INTO import_batches (id, person, created_at, file_name, plan) VALUES (?, ?, ?, ?, ?)",
                                   [.text(id), .text(person), .real(time.timeIntervalSince1970), .text(fileName), .text(json)])
                for line in lines {
                    try connection.run("INSERT INTO import_rows (import_id, line, state) VALUES (?, ?, 'pending')",
                                       [.text(id), .integer(line)])
                }
            }
        }
    }

    func batch(_ id: String) async throws -> Batch? {
        let found: (String, Double, String, String, [RowState])? = try await writer.perform { connection in
            var head: (String, Double, String, String)?
            try connection.query("SELECT person, created_at, file_name, plan FROM import_batches WHERE id = ?", [.text(id)]) { row in
                head = (row.string(0), row.double(1), row.string(2), row.string(3))
            }
            guard let head else { return nil }
            var rows: [RowState] = []
            try connection.query("""
                SELECT line, state, product_id, reason, intent_at, intent_after_id FROM import_rows WHERE import_id = ?
                """, [.text(id)]) { row in
                rows.append(RowState(line: row.int(0), state: State(rawValue: row.string(1)) ?? .failed,
                                     productID: row.isNull(2) ? nil : row.int(2), reason: row.string(3),
                                     intentAt: row.isNull(4) ? nil : Date(timeIntervalSince1970: row.double(4)),
                                     intentAfterID: row.isNull(5) ? nil : row.int(5)))
            }
            return (head.0, head.1, head.2, head.3, rows)
        }
        guard let found else { return nil }
        let plan = try JSONDecoder().decode(ImportPlan.self, from: Data(found.3.utf8))
        return Batch(id: id, person: found.0, createdAt: Date(timeIntervalSince1970: found.1), fileName: found.2, plan: plan,
                     rows: Dictionary(found.4.map { ($0.line, $0) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Records the intent to send a row; committed before the API is asked.
    func markSending(_ id: String, line: Int, at time: Date, afterID: Int?) async throws {
        try await writer.perform { connection in
            try connection.run("""
                UPDATE import_rows SET state = 'sending', intent_at = ?, intent_after_id = ?, reason = ''
                WHERE import_id = ? AND line = ?
                """, [.real(time.timeIntervalSince1970), afterID.map { .integer($0) } ?? .null, .text(id), .integer(line)])
        }
    }

    func finish(_ id: String, line: Int, state: State, productID: Int?, reason: String) async throws {
        try await writer.perform { connection in
            try connection.run("UPDATE import_rows SET state = ?, product_id = ?, reason = ? WHERE import_id = ? AND line = ?",
                               [.text(state.rawValue), productID.map { .integer($0) } ?? .null, .text(reason), .text(id),
                                .integer(line)])
        }
    }

    /// Drops a person's imports beyond the newest `keep` (each can hold up to the upload limit of
    /// photos for a day); answers the ids dropped so their folders go too.
    func trim(person: String, keep: Int) async throws -> [String] {
        try await writer.perform { connection in
            var ids: [String] = []
            try connection.query("SELECT id FROM import_batches WHERE person = ? ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET ?",
                                 [.text(person), .integer(keep)]) { ids.append($0.string(0)) }
            try connection.transaction {
                for id in ids {
                    try connection.run("DELETE FROM import_rows WHERE import_id = ?", [.text(id)])
                    try connection.run("DELETE FROM import_batches WHERE id = ?", [.text(id)])
                }
            }
            return ids
        }
    }

    /// Deletes one import and its rows.
    func delete(_ id: String) async throws {
        try await writer.perform { connection in
            try connection.transaction {
                try connection.run("DELETE FROM import_rows WHERE import_id = ?", [.text(id)])
                try connection.run("DELETE FROM import_batches WHERE id = ?", [.text(id)])
            }
        }
    }

    /// Imports older than `age` (their files are removed by the caller).
    func purge(olderThan cutoff: Date) async throws -> [String] {
        try await writer.perform { connection in
            var ids: [String] = []
            try connection.query("SELECT id FROM import_batches WHERE created_at < ?", [.real(cutoff.timeIntervalSince1970)]) {
                ids.append($0.string(0))
            }
            try connection.transaction {
                for id in ids {
                    try connection.run("DELETE FROM import_rows WHERE import_id = ?", [.text(id)])
                    try connection.run("DELETE FROM import_batches WHERE id = ?", [.text(id)])
                }
            }
            return ids
        }
    }
}
