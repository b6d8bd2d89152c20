import Foundation
import SQLiteStore

/// A register form kept for later: who saved it, when, its name (for the list) and its folder
/// under `DATA/drafts` (fields and images, see `SavedProduct`). Shared by the whole team.
struct Draft: Sendable, Equatable {
    var id: Int
    var person: String
    var savedAt: Date
    var name: String
    var folder: String
}

/// The drafts' rows in `DATA/panel.sqlite` (table `drafts`, its own).
final class DraftStore: Sendable {
    private let writer: SerialDatabase
    /// Drafts kept at most (each holds up to five images).
    static let maxDrafts = 500

    static let schema = """
        CREATE TABLE IF NOT EXISTS drafts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            person TEXT NOT NULL,
            saved_at REAL NOT NULL,
            name TEXT NOT NULL,
            folder TEXT NOT NULL);
        """

    @available(*, noasync, message: "start-up only")
    init(_ writer: SerialDatabase) throws {
        self.writer = writer
        try writer.performNow { try $0.execute(Self.schema) }
    }

    enum Failure: Error { case unknownDraft }

    /// Stores a new draft (id nil) or replaces one; answers its id and the folder it replaced.
    /// An id that is not a stored draft is refused (`unknownDraft`), never stored as a new one.
    func save(id: Int?, person: String, savedAt: Date, name: String, folder: String) async throws -> (id: Int, oldFolder: String?) {
        try await writer.perform { connection in
            try connection.transaction {
                if let id {
                    var old: String?
                    try connection.query("SELECT folder FROM drafts WHERE id = ?", [.integer(id)]) { old = $0.string(0) }
                    if let old {
                        try connection.run("UPDATE drafts SET person = ?, saved_at = ?, name = ?, folder = ? WHERE id = ?",
                                           [.text(person), .real(savedAt.timeIntervalSince1970), .text(name), .text(folder), .integer(id)])
                        return (id, old)
                    }
                    throw Failure.unknownDraft
                }
                try connection.run("INSERT INTO drafts (person, saved_at, name, folder) VALUES (?, ?, ?, ?)",
                                   [.text(person), .real(savedAt.timeIntervalSince1970), .text(name), .text(folder)])
                return (connection.lastInsertedRowID, nil)
            }
        }
    }

    func draft(_ id: Int) async throws -> Draft? {
        try await writer.perform { connection in
            var found: Draft?
            try connection.query("SELECT id, person, saved_at, name, folder FROM drafts WHERE id = ?", [.integer(id)]) {
                found = Self.draft($0)
            }
            return found
        }
    }

    /// Every draft, newest first.
    func all() async throws -> [Draft] {
        try await writer.perform { connection in
            var drafts: [Draft] = []
            try connection.query("SELECT id, person, saved_at, name, folder FROM drafts ORDER BY saved_at DESC, id DESC LIMIT ?",
                                 [.integer(Self.maxDrafts)]) { drafts.append(Self.draft($0)) }
            return drafts
        }
    }

    func count() async throws -> Int {
        try await writer.perform { connection in
            var count = 0
            try connection.query("SELECT COUNT(*) FROM drafts") { count = $0.int(0) }
            return count
        }
    }

    /// Removes a draft; answers its folder (nil when it was already gone).
    func remove(_ id: Int) async throws -> String? {
        try await writer.perform { connection in
            try connection.transaction {
                var folder: String?
                try connection.query("SELECT folder FROM drafts WHERE id = ?", [.integer(id)]) { folder = $0.string(0) }
                try connection.run("DELETE FROM drafts WHERE id = ?", [.integer(id)])
                return folder
            }
        }
    }

    private static func draft(_ row: SQLiteRow) -> Draft {
        Draft(id: row.int(0), person: row.string(1), savedAt: Date(timeIntervalSince1970: row.double(2)),
              name: row.string(3), folder: row.string(4))
    }
}
