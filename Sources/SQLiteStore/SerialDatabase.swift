import Dispatch

/// One SQLite connection confined to its own serial queue.
///
/// Work runs on the queue rather than on the Swift concurrency pool, so a commit waiting for
/// `fsync` never blocks one of the (few) cooperative threads that serve other requests.
public final class SerialDatabase: Sendable {
    private let connection: SQLiteConnection
    private let queue: DispatchQueue

    public init(connection: SQLiteConnection, label: String) {
        self.connection = connection
        self.queue = DispatchQueue(label: label)
    }

    /// Runs `work` with exclusive use of the connection.
    public func perform<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [connection] in
                continuation.resume(with: Result { try work(connection) })
            }
        }
    }

    /// The blocking form, for start-up code that is not async (opening the store, vendors,
    /// `--seed`). `noasync`: from a request handler it would hold a cooperative thread through
    /// an fsync, so the compiler refuses such a call.
    @available(*, noasync, message: "blocks its thread; use perform(_:) from async code")
    public func performNow<T>(_ work: (SQLiteConnection) throws -> T) rethrows -> T {
        try queue.sync { try work(connection) }
    }
}
