import Foundation
import SQLiteStore

/// Which bulk run booked each sale (table `sale_runs`, beside `sales`): a bulk 즉시할인 is one run
/// of the activity log (`BulkRuns`), and its sales can be cancelled together.
enum SaleRuns {
    static let schema = """
        CREATE TABLE IF NOT EXISTS sale_runs (
            sale_id INTEGER PRIMARY KEY REFERENCES sales(id) ON DELETE CASCADE,
            run_id TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS sale_runs_by_run ON sale_runs(run_id);
        """

    /// How many sales a run booked, how many of them are still scheduled or running, who booked
    /// them and when.
    struct Summary: Sendable, Equatable {
        var id: String
        var total: Int
        var open: Int
        var createdBy: String
        var createdAt: Date
    }

    /// What cancelling a run's sales did: each sale as a single cancel would have, or skipped
    /// because it had already ended, failed or been cancelled.
    struct Cancellation: Sendable, Equatable {
        var cancelled = 0
        /// Running sales whose cancel waits for the API (retried like any step).
        var pending = 0
        var skipped = 0

        var total: Int { cancelled + pending + skipped }
    }
}

extension SaleStore {
    /// The runs among `ids` that booked sales, by run id.
    func runSummaries(_ ids: [String]) async throws -> [String: SaleRuns.Summary] {
        let wanted = Array(Set(ids.filter(BulkRuns.isValid)).prefix(500))
        guard !wanted.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: wanted.count).joined(separator: ",")
        return try await database.reader.perform { connection in
            var summaries: [String: SaleRuns.Summary] = [:]
            try connection.query("""
                SELECT r.run_id, COUNT(*), SUM(s.state IN ('scheduled', 'running')), MIN(s.created_by), MIN(s.created_at)
                FROM sale_runs r JOIN sales s ON s.id = r.sale_id
                WHERE r.run_id IN (\(marks)) GROUP BY r.run_id
                """, wanted.map { .text($0) }) { row in
                summaries[row.string(0)] = SaleRuns.Summary(id: row.string(0), total: row.int(1), open: row.int(2),
                                                            createdBy: row.string(3),
                                                            createdAt: Date(timeIntervalSince1970: row.double(4)))
            }
            return summaries
        }
    }

    /// The runs that still have a scheduled or running sale, newest first.
    func openRuns(limit: Int = 20) async throws -> [SaleRuns.Summary] {
        let ids: [String] = try await database.reader.perform { connection in
            var ids: [String] = []
            try connection.query("""
                SELECT r.run_id FROM sale_runs r JOIN sales s ON s.id = r.sale_id
                WHERE s.state IN ('scheduled', 'running') GROUP BY r.run_id ORDER BY MAX(s.id) DESC LIMIT \(max(1, min(limit, 100)))
                """) { ids.append($0.string(0)) }
            return ids
        }
        let summaries = try await runSummaries(ids)
        return ids.compactMap { summaries[$0] }
    }
}
