import CSQLite
import Foundation

/// A failure reported by SQLite, with the statement's context (never any bound values).
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public var code: Int32
    public var message: String
    public var description: String { "SQLite error \(code): \(message)" }

    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }
}

/// SQLite wants to copy bound text and blobs (SQLITE_TRANSIENT), which C exposes as a cast macro
/// (`(sqlite3_destructor_type)-1`); SQLite compares the pointer with -1 and never calls it.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A value bound to a `?` parameter of a statement.
public enum SQLiteValue: Sendable {
    case integer(Int)
    case real(Double)
    case text(String)
    case null
}

/// One SQLite connection with a cache of prepared statements.
///
/// Not thread-safe by itself: `SerialDatabase` hands each connection to one caller at a time
/// (under its lock), which is why the `@unchecked Sendable` is sound.
public final class SQLiteConnection: @unchecked Sendable {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    public init(path: String) throws {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw SQLiteError(code: status, message: message)
        }
        // The other connection may briefly hold a lock (checkpoint, schema); wait instead of failing.
        sqlite3_busy_timeout(handle, 5_000)
    }

    deinit { close() }

    /// Finalizes the cached statements and closes the file (the last connection to close
    /// checkpoints the WAL into the database). Later calls throw; closing twice does nothing.
    public func close() {
        guard let open = handle else { return }
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        sqlite3_close(open)
        handle = nil
    }

    private static let closedError = SQLiteError(code: SQLITE_MISUSE, message: "the database is closed (the process is stopping)")

    /// The open connection's handle (for `OnlineBackup`), or a throw once closed.
    func openHandle() throws -> OpaquePointer {
        guard let handle else { throw Self.closedError }
        return handle
    }

    /// Runs one or more statements without results (schema, pragmas, transactions).
    public func execute(_ sql: String) throws {
        guard handle != nil else { throw Self.closedError }
        var errorMessage: UnsafeMutablePointer<CChar>?   // sqlite3_exec's message, ours to free
        let status = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if status != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? "exec failed"
            sqlite3_free(errorMessage)
            throw SQLiteError(code: status, message: message)
        }
    }

    /// Runs a cached prepared statement and hands each row to `row`.
    public func query(_ sql: String, _ values: [SQLiteValue] = [], row: (SQLiteRow) throws -> Void) throws {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try bind(values, to: statement)
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_ROW {
                try row(SQLiteRow(statement: statement))
            } else if status == SQLITE_DONE {
                return
            } else {
                throw currentError(status)
            }
        }
    }

    /// Runs a cached prepared statement that returns no rows.
    public func run(_ sql: String, _ values: [SQLiteValue] = []) throws {
        try query(sql, values) { _ in }
    }

    public var lastInsertedRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` inside BEGIN IMMEDIATE … COMMIT; rolls back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        guard handle != nil else { throw Self.closedError }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw currentError(status) }
        statements[sql] = statement
        return statement
    }

    private func bind(_ values: [SQLiteValue], to statement: OpaquePointer) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let number): status = sqlite3_bind_int64(statement, index, Int64(number))
            case .real(let number): status = sqlite3_bind_double(statement, index, number)
            case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, transient)
            case .null: status = sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else { throw currentError(status) }
        }
    }

    private func currentError(_ status: Int32) -> SQLiteError {
        SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// Column access for the current row of a stepping statement.
public struct SQLiteRow {
    fileprivate let statement: OpaquePointer

    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    public func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(statement, column) else { return "" }
        return String(cString: text)
    }
}
