import CSQLite
import Foundation

/// SQLite's online backup API: a consistent copy of a database that another process (the
/// running panel or sandbox) keeps writing to. The copy is made in one step from one read
/// snapshot of the WAL, so it holds every transaction committed before that moment and none
/// after; writers are never blocked by it (WAL readers and writers do not wait for each other).
public enum OnlineBackup {
    /// Copies `source` to `destination`, which must not exist; the copy is created with `mode`
    /// (private by default: the databases hold sessions, password hashes and vendor secrets)
    /// and synced to disk. Answers nothing; throws an `SQLiteError` naming the file.
    public static func copy(_ source: String, to destination: String, mode: mode_t = 0o600) throws {
        guard FileManager.default.fileExists(atPath: source) else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "\(source) does not exist")
        }
        // Read-only: never create or change the source (not even a checkpoint when this is its
        // last connection, as when the panel is stopped).
        var from: OpaquePointer?
        defer { sqlite3_close(from) }
        guard sqlite3_open_v2(source, &from, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let from else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot open \(source)")
        }
        sqlite3_busy_timeout(from, 5_000)
        // Never through a link planted at the name: the copy holds secrets.
        let fd = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot create \(destination): \(String(cString: strerror(errno)))")
        }
        close(fd)
        let target = try SQLiteConnection(path: destination)
        let to = try target.openHandle()
        guard let backup = sqlite3_backup_init(to, "main", from, "main") else {
            throw SQLiteError(code: sqlite3_errcode(to), message: "backup of \(source): \(String(cString: sqlite3_errmsg(to)))")
        }
        var status: Int32
        repeat {
            // -1: every page in one step, from one snapshot. BUSY/LOCKED: a checkpoint holds
            // the file a moment; try again.
            status = sqlite3_backup_step(backup, -1)
            if status == SQLITE_BUSY || status == SQLITE_LOCKED { usleep(10_000) }
        } while status == SQLITE_OK || status == SQLITE_BUSY || status == SQLITE_LOCKED
        let finished = sqlite3_backup_finish(backup)
        guard status == SQLITE_DONE, finished == SQLITE_OK else {
            let code = status == SQLITE_DONE ? finished : status
            throw SQLiteError(code: code, message: "backup of \(source) to \(destination): \(String(cString: sqlite3_errstr(code)))")
        }
        // A copy is one file: no WAL beside it, whatever mode the source used.
        try target.execute("PRAGMA journal_mode=DELETE")
        target.close()
        try syncFile(destination)
    }

    /// `PRAGMA integrity_check` of a database file: "ok", or SQLite's first complaints.
    public static func integrityCheck(_ path: String) throws -> String {
        let connection = try SQLiteConnection(path: path)
        defer { connection.close() }
        var verdict: [String] = []
        try connection.query("PRAGMA integrity_check") { verdict.append($0.string(0)) }
        return verdict.prefix(3).joined(separator: "; ")
    }

    private static func syncFile(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SQLiteError(code: SQLITE_IOERR, message: "cannot reopen \(path)") }
        defer { close(fd) }
        guard fsync(fd) == 0 else {
            throw SQLiteError(code: SQLITE_IOERR, message: "cannot sync \(path): \(String(cString: strerror(errno)))")
        }
    }
}
