import Foundation
import SQLiteStore

/// The activity log in `DATA/panel.sqlite`: every write and security event, newest first.
/// `record` never fails its caller: the action it describes already happened, so a storage
/// fault is reported on standard error (without the row's contents) instead.
final class ActivityLog: Sendable {
    private let database: PanelDatabase
    private let now: @Sendable () -> Date
    /// Told of each row once stored (the live product events).
    private let recorded: @Sendable (ActivityEntry) -> Void

    /// Text longer than this is cut (a description can be 1,000 characters; the log needs the gist).
    static let maxValueLength = 300
    static let pageSize = 50

    init(database: PanelDatabase, now: @escaping @Sendable () -> Date,
         recorded: @escaping @Sendable (ActivityEntry) -> Void = { _ in }) {
        self.database = database
        self.now = now
        self.recorded = recorded
    }

    func record(_ entry: ActivityEntry) async {
        let time = now()
        do {
            try await database.writer.perform { connection in
                try connection.transaction { try Self.write(entry, at: time, inside: connection) }
            }
            recorded(entry)
        } catch {
            FileHandle.standardError.write(Data("openmarket-admin: an activity row (\(entry.action)) could not be stored: \(error)\n".utf8))
        }
    }

    /// Writes one row inside a caller's transaction, so a row can be tied to the state change it
    /// reports (a sale's step and its row commit together).
    static func write(_ entry: ActivityEntry, at time: Date, inside connection: SQLiteConnection) throws {
        try connection.run(
            "INSERT INTO activity (at, person, address, action, product_id, detail) VALUES (?, ?, ?, ?, ?, ?)",
            [.real(time.timeIntervalSince1970), .text(cut(entry.person)), .text(cut(entry.address)), .text(cut(entry.action)),
             entry.productID.map { .integer($0) } ?? .null, entry.detail.map { .text(cutDetail($0)) } ?? .null])
        let id = connection.lastInsertedRowID
        if let run = entry.runID {
            try connection.run("INSERT INTO activity_runs (activity_id, run_id) VALUES (?, ?)", [.integer(id), .text(run)])
        }
        for (position, change) in entry.changes.enumerated() {
            try connection.run(
                "INSERT INTO activity_changes (activity_id, position, field, old, new) VALUES (?, ?, ?, ?, ?)",
                [.integer(id), .integer(position), .text(cut(change.field)), .text(cut(change.old)), .text(cut(change.new))])
        }
    }

    struct Filter: Sendable, Equatable {
        var person: String?
        var action: String?
        var productID: Int?
    }

    /// One page of rows matching `filter`, newest first, and whether an older page exists.
    func list(_ filter: Filter, page: Int, pageSize: Int = ActivityLog.pageSize) async throws -> (rows: [ActivityRecord], hasMore: Bool) {
        var conditions: [String] = []
        var values: [SQLiteValue] = []
        if let person = filter.person { conditions.append("person = ?"); values.append(.text(person)) }
        if let action = filter.action { conditions.append("action = ?"); values.append(.text(action)) }
        if let product = filter.productID { conditions.append("product_id = ?"); values.append(.integer(product)) }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        values.append(.integer(pageSize + 1))
        values.append(.integer(max(0, page - 1) * pageSize))
        let sql = "SELECT id, at, person, address, action, product_id, detail FROM activity" + whereClause
            + " ORDER BY id DESC LIMIT ? OFFSET ?"
        let frozen = values
        var rows = try await database.reader.perform { connection in
            try Self.rows(sql, frozen, connection)
        }
        let hasMore = rows.count > pageSize
        if hasMore { rows.removeLast() }
        return (rows, hasMore)
    }

    /// Which of `records` a later `revert` row set back (its detail names the row it reverted).
    /// Reverts come after what they revert, about the same product, so only those are read.
    func revertedRowIDs(among records: [ActivityRecord]) async throws -> Set<Int> {
        let products = Set(records.compactMap(\.entry.productID))
        guard let oldest = records.map(\.id).min(), !products.isEmpty else { return [] }
        let wanted = Set(records.map(\.id))
        let marks = products.map { _ in "?" }.joined(separator: ", ")
        let values: [SQLiteValue] = [.integer(oldest)] + products.sorted().map { .integer($0) }
        let sql = "SELECT detail FROM activity WHERE action = 'revert' AND id > ? AND product_id IN (\(marks))"
        let details: [String] = try await database.reader.perform { connection in
            var found: [String] = []
            try connection.query(sql, values) { row in found.append(row.isNull(0) ? "" : row.string(0)) }
            return found
        }
        return Set(details.compactMap { ActivityDetail(stored: $0)?.arguments["row"].flatMap(Int.init) }.filter(wanted.contains))
    }

    /// The rows of these ids with their changes and runs (ids in the given order, unknown ones left out).
    func records(ids: [Int]) async throws -> [ActivityRecord] {
        guard !ids.isEmpty else { return [] }
        let limited = Array(ids.prefix(2000))
        let placeholders = Array(repeating: "?", count: limited.count).joined(separator: ",")
        let sql = "SELECT id, at, person, address, action, product_id, detail FROM activity WHERE id IN (\(placeholders)) ORDER BY id"
        return try await database.reader.perform { connection in
            try Self.rows(sql, limited.map { .integer($0) }, connection)
        }
    }

    /// The row ids of one bulk or sheet run, oldest first.
    func rowIDs(ofRun run: String) async throws -> [Int] {
        try await database.reader.perform { connection in
            var ids: [Int] = []
            try connection.query("SELECT activity_id FROM activity_runs WHERE run_id = ? ORDER BY activity_id LIMIT 2000",
                                 [.text(run)]) { ids.append($0.int(0)) }
            return ids
        }
    }

    /// Which run each row of a bulk or sheet run belongs to, beside the log's own tables.
    static let runsSchema = """
        CREATE TABLE IF NOT EXISTS activity_runs (
            activity_id INTEGER PRIMARY KEY REFERENCES activity(id) ON DELETE CASCADE,
            run_id TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS activity_runs_by_run ON activity_runs(run_id);
        """

    @available(*, noasync, message: "start-up only")
    static func createRunsTable(_ writer: SerialDatabase) throws {
        try writer.performNow { try $0.execute(runsSchema) }
    }

    /// Drops rows older than `days` days (`--activity-days`).
    func purge(olderThanDays days: Int) async {
        let cutoff = now().timeIntervalSince1970 - Double(days) * 86_400
        do {
            try await database.writer.perform { connection in
                try connection.run("DELETE FROM activity WHERE at < ?", [.real(cutoff)])
            }
        } catch {
            FileHandle.standardError.write(Data("openmarket-admin: old activity rows could not be removed: \(error)\n".utf8))
        }
    }

    private static func rows(_ sql: String, _ values: [SQLiteValue], _ connection: SQLiteConnection) throws -> [ActivityRecord] {
        var records: [ActivityRecord] = []
        try connection.query(sql, values) { row in
            records.append(ActivityRecord(
                id: row.int(0), time: Date(timeIntervalSince1970: row.double(1)),
                entry: ActivityEntry(person: row.string(2), address: row.string(3), action: row.string(4),
                                     productID: row.isNull(5) ? nil : row.int(5), detail: row.isNull(6) ? nil : row.string(6))))
        }
        for index in records.indices {
            try connection.query("SELECT field, old, new FROM activity_changes WHERE activity_id = ? ORDER BY position",
                                 [.integer(records[index].id)]) { row in
                records[index].entry.changes.append(.init(field: row.string(0), old: row.string(1), new: row.string(2)))
            }
            try connection.query("SELECT run_id FROM activity_runs WHERE activity_id = ?", [.integer(records[index].id)]) { row in
                records[index].entry.runID = row.string(0)
            }
        }
        return records
    }

    /// A structured detail (`ActivityDetail`) is kept whole (it bounds itself): cut, its JSON
    /// would no longer read. A plain sentence is cut like any value.
    static func cutDetail(_ text: String) -> String {
        if text.count <= ActivityDetail.maxStoredLength, ActivityDetail(stored: text) != nil { return text }
        return cut(text)
    }

    private static func cut(_ text: String) -> String {
        text.count > maxValueLength ? String(text.prefix(maxValueLength - 1)) + "…" : text
    }
}
