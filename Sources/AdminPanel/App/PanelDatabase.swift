import Foundation
import HTTPServer
import SQLiteStore

/// `DATA/panel.sqlite`: people, invitations, sessions, the activity log and the panel's keys.
/// One WAL file through the shared `SQLiteStore` (the sandbox's storage code), so a `kill -9`
/// mid-write leaves whole rows or none. A damaged file stops the start with its name; it is
/// never replaced silently. A missing file is created (first start), readable by its owner only.
final class PanelDatabase: Sendable {
    static let fileName = "panel.sqlite"
    let database: WALDatabase
    var writer: SerialDatabase { database.writer }
    var reader: SerialDatabase { database.reader }

    init(directory: URL) throws {
        do {
            // DATA holds secrets: created for its owner alone (0700).
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw PanelStartupError("the data folder \(directory.path) cannot be created: \(error.localizedDescription)")
        }
        let path = directory.appendingPathComponent(Self.fileName).path
        do {
            database = try WALDatabase(path: path, schema: Self.schema, label: "panel.db", privateFile: true)
        } catch {
            throw PanelStartupError("\(path) cannot be used: \(error). Move the file aside to start afresh, or restore it from a backup.")
        }
    }

    /// Schema version 1. `changes` rows belong to one activity row (an edit's fields, old → new).
    static let schema = """
        CREATE TABLE IF NOT EXISTS settings (
            name TEXT PRIMARY KEY,
            value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS people (
            name TEXT PRIMARY KEY,
            name_fold TEXT NOT NULL UNIQUE,
            role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
            password_hash TEXT,
            disabled INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL,
            last_seen REAL);
        CREATE TABLE IF NOT EXISTS invitations (
            token_hash TEXT PRIMARY KEY,
            person TEXT NOT NULL REFERENCES people(name) ON DELETE CASCADE,
            expires_at REAL NOT NULL);
        CREATE TABLE IF NOT EXISTS sessions (
            id_hash TEXT PRIMARY KEY,
            person TEXT NOT NULL REFERENCES people(name) ON DELETE CASCADE,
            created_at REAL NOT NULL,
            last_seen REAL NOT NULL,
            address TEXT NOT NULL,
            browser TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS activity (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            at REAL NOT NULL,
            person TEXT NOT NULL,
            address TEXT NOT NULL,
            action TEXT NOT NULL,
            product_id INTEGER,
            detail TEXT);
        CREATE INDEX IF NOT EXISTS activity_by_product ON activity(product_id, id);
        CREATE INDEX IF NOT EXISTS activity_by_time ON activity(at);
        CREATE TABLE IF NOT EXISTS activity_changes (
            activity_id INTEGER NOT NULL REFERENCES activity(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            field TEXT NOT NULL,
            old TEXT NOT NULL,
            new TEXT NOT NULL,
            PRIMARY KEY (activity_id, position));
        PRAGMA user_version = 1;
        """

    /// The key that signs CSRF tokens and flash cookies: made once, kept in the database so forms
    /// opened before a restart still submit afterwards.
    @available(*, noasync, message: "start-up only")
    func signingKey() throws -> [UInt8] {
        try writer.performNow { connection in
            try connection.transaction {
                var stored: String?
                try connection.query("SELECT value FROM settings WHERE name = 'signing_key'") { stored = $0.string(0) }
                if let stored, let key = PanelCrypto.bytes(hex: stored), key.count == PanelCrypto.keyByteCount { return key }
                let key = Secrets.randomBytes(PanelCrypto.keyByteCount)
                try connection.run("INSERT OR REPLACE INTO settings (name, value) VALUES ('signing_key', ?)",
                                   [.text(PanelCrypto.hex(key))])
                return key
            }
        }
    }
}
