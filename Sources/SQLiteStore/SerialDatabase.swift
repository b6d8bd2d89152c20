import NetworkIO

/// One SQLite connection used by one caller at a time.
///
/// Async work runs on the connection's own `BlockingThread` (the one way the project runs
/// blocking work off Swift's concurrency pool), so a commit waiting for `fsync` never blocks one
/// of the few cooperative threads that serve requests. `lock` keeps the connection exclusive
/// between that thread and `performNow`'s callers.
public final class SerialDatabase: Sendable {
    private let connection: Locked<SQLiteConnection>
    private let thread = BlockingThread()
    /// Names the database (e.g. `panel.writer`) for people reading a debugger or a log.
    public let label: String

    public init(connection: SQLiteConnection, label: String) {
        self.connection = Locked(connection)
        self.label = label
    }

    /// Runs `work` with exclusive use of the connection.
    public func perform<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await thread.run { [connection] in try connection.withLock { try work($0) } }
    }

    /// Closes the connection after every piece of work queued before this call has run (the
    /// clean stop's last step: queued writes land, then the file is closed). Work queued later
    /// throws a "closed" error instead of touching a closed handle.
    public func close() async {
        await thread.run { [connection] in connection.withLock { $0.close() } }
    }

    /// The blocking form, for start-up code that is not async (opening the store, vendors,
    /// `--seed`). `noasync`: from a request handler it would hold a cooperative thread through
    /// an fsync, so the compiler refuses such a call.
    @available(*, noasync, message: "blocks its thread; use perform(_:) from async code")
    public func performNow<T>(_ work: (SQLiteConnection) throws -> T) rethrows -> T {
        try connection.withLock { try work($0) }
    }
}
