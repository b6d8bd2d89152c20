import Foundation
import SQLiteStore

/// One product the panel deleted and kept: its old id, name, who deleted it and when, and its
/// folder under `DATA/trash`. A restored item keeps its row (with the new id) until swept, so a
/// second restore of it answers with the product the first one made.
struct TrashItem: Sendable, Equatable {
    var oldID: Int
    var name: String
    var person: String
    var deletedAt: Date
    var folder: String
    var restoredAs: Int?
}

/// The trash's rows in `DATA/panel.sqlite` (table `trash_items`, its own).
final class TrashStore: Sendable {
    private let writer: SerialDatabase

    static let schema = """
        CREATE TABLE IF NOT EXISTS trash_items (
            old_id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            person TEXT NOT NULL,
            deleted_at REAL NOT NULL,
            folder TEXT NOT NULL,
            restored_as INTEGER);
        CREATE INDEX IF NOT EXISTS trash_items_by_time ON trash_items(deleted_at);
        """

    @available(*, noasync, message: "start-up only")
    init(_ writer: SerialDatabase) throws {
        self.writer = writer
        try writer.performNow { try $0.execute(Self.schema) }
    }

    /// Records a kept product (after its files are synced). A product deleted, restored under the
    /// same id is impossible (ids are never reused), so a row for the id is an earlier try whose
    /// delete failed: it is replaced.
    func record(_ item: TrashItem) async throws {
        try await writer.perform { connection in
            try connection.run("""
                INSERT OR REPLACE INTO trash_items (old_id, name, person, deleted_at, folder, restored_as)
                VALUES (?, ?, ?, ?, ?, NULL)
                """, [.integer(item.oldID), .text(item.name), .text(item.person), .real(item.deletedAt.timeIntervalSince1970),
                      .text(item.folder)])
        }
    }

    func item(_ oldID: Int) async throws -> TrashItem? {
        try await writer.perform { connection in
            var found: TrashItem?
            try connection.query("SELECT old_id, name, person, deleted_at, folder, restored_as FROM trash_items WHERE old_id = ?",
                                 [.integer(oldID)]) { found = Self.item($0) }
            return found
        }
    }

    /// Items not restored yet, newest first.
    func waiting(limit: Int = 500) async throws -> [TrashItem] {
        try await writer.perform { connection in
            var items: [TrashItem] = []
            try connection.query("""
                SELECT old_id, name, person, deleted_at, folder, restored_as FROM trash_items
                WHERE restored_as IS NULL ORDER BY deleted_at DESC, old_id DESC LIMIT ?
                """, [.integer(limit)]) { items.append(Self.item($0)) }
            return items
        }
    }

    func markRestored(_ oldID: Int, as newID: Int) async throws {
        try await writer.perform { connection in
            try connection.run("UPDATE trash_items SET restored_as = ? WHERE old_id = ?", [.integer(newID), .integer(oldID)])
        }
    }

    func remove(_ oldID: Int) async throws {
        try await writer.perform { connection in
            try connection.run("DELETE FROM trash_items WHERE old_id = ?", [.integer(oldID)])
        }
    }

    /// Removes rows older than the cutoff and answers their folders (to remove from disk).
    func removeOlder(than cutoff: Date) async throws -> [String] {
        try await writer.perform { connection in
            try connection.transaction {
                var folders: [String] = []
                try connection.query("SELECT folder FROM trash_items WHERE deleted_at < ?", [.real(cutoff.timeIntervalSince1970)]) {
                    folders.append($0.string(0))
                }
                try connection.run("DELETE FROM trash_items WHERE deleted_at < ?", [.real(cutoff.timeIntervalSince1970)])
                return folders
            }
        }
    }

    func allFolders() async throws -> Set<String> {
        try await writer.perform { connection in
            var folders = Set<String>()
            try connection.query("SELECT folder FROM trash_items") { folders.insert($0.string(0)) }
            return folders
        }
    }

    private static func item(_ row: SQLiteRow) -> TrashItem {
        TrashItem(oldID: row.int(0), name: row.string(1), person: row.string(2),
                  deletedAt: Date(timeIntervalSince1970: row.double(3)), folder: row.string(4),
                  restoredAs: row.isNull(5) ? nil : row.int(5))
    }
}
