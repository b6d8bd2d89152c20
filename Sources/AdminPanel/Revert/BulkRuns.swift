import Foundation
import SQLiteStore

/// Which bulk run each `bulk` activity row belongs to (table `activity_runs`, beside the
/// activity log's own tables), and the rows of one run.
enum BulkRuns {
    static let schema = """
        CREATE TABLE IF NOT EXISTS activity_runs (
            activity_id INTEGER PRIMARY KEY REFERENCES activity(id) ON DELETE CASCADE,
            run_id TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS activity_runs_by_run ON activity_runs(run_id);
        """

    @available(*, noasync, message: "start-up only")
    static func createTable(_ writer: SerialDatabase) throws {
        try writer.performNow { try $0.execute(schema) }
    }

    /// A new run's id: short, unguessable, safe in a URL.
    static func newID() -> String { SecureToken.make(byteCount: 9) }

    static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64 && id.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII
            || $0 == "-" || $0 == "_" }
    }
}

extension ActivityLog {
    /// The activity row ids of one bulk run, oldest first.
    func rowIDs(ofRun run: String, in database: PanelDatabase) async throws -> [Int] {
        try await database.reader.perform { connection in
            var ids: [Int] = []
            try connection.query("SELECT activity_id FROM activity_runs WHERE run_id = ? ORDER BY activity_id LIMIT 2000",
                                 [.text(run)]) { ids.append($0.int(0)) }
            return ids
        }
    }
}
