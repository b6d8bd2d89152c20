import Foundation

/// One SQLite file opened the way every durable store here wants it: write-ahead logging,
/// `synchronous=FULL` (a commit is on disk before it returns), foreign keys on, and two
/// connections — a writer and a read-only reader — each used by one caller at a time on a thread
/// of its own (`SerialDatabase`), so reads never wait for a writer's fsync and writes are serialized.
///
/// A file that exists but is not a sound SQLite database is refused with an error naming it:
/// stores must never reset data silently.
public final class WALDatabase: Sendable {
    public let writer: SerialDatabase
    public let reader: SerialDatabase
    public let path: String

    /// Opens (or creates) `path` and applies `schema` (idempotent `CREATE … IF NOT EXISTS`).
    /// `privateFile` (the default): the file is readable by its owner only, 0600 — the databases
    /// hold vendor secrets and password hashes. A new file is created so; an existing one (and its
    /// `-wal`/`-shm`, which SQLite creates with the database's mode) is made so.
    public init(path: String, schema: String, label: String, privateFile: Bool = true) throws {
        self.path = path
        if privateFile {
            if !FileManager.default.fileExists(atPath: path) {
                guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                    throw SQLiteError(code: 0, message: "cannot create \(path)")
                }
            }
            for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
                try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
            }
        }
        let writeConnection = try SQLiteConnection(path: path)
        do {
            try writeConnection.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
            var verdict: [String] = []
            try writeConnection.query("PRAGMA quick_check") { verdict.append($0.string(0)) }
            guard verdict == ["ok"] else {
                throw SQLiteError(code: 11, message: "integrity check failed: " + verdict.prefix(3).joined(separator: "; "))
            }
            try writeConnection.execute(schema)
        } catch let error as SQLiteError {
            throw SQLiteError(code: error.code, message: "\(path) is damaged or not a database (\(error.message))")
        }
        let readConnection = try SQLiteConnection(path: path)
        try readConnection.execute("PRAGMA query_only=ON;")
        writer = SerialDatabase(connection: writeConnection, label: label + ".writer")
        reader = SerialDatabase(connection: readConnection, label: label + ".reader")
    }

    /// Closes the reader, then the writer after its queued writes (the last close checkpoints
    /// the WAL, so a clean stop leaves one file).
    public func close() async {
        await reader.close()
        await writer.close()
    }
}
