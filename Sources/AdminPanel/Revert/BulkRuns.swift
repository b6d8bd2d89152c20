import Foundation

/// The runs of the activity log: many rows of one bulk action or sheet save share a run id
/// (`data-bulk-run`), so the run can be reverted at once (`ActivityLog.rowIDs(ofRun:)`).
enum BulkRuns {
    /// A new run's id: short, unguessable, safe in a URL.
    static func newID() -> String { SecureToken.make(byteCount: 9) }

    static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64 && id.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII
            || $0 == "-" || $0 == "_" }
    }
}
