import Foundation

/// A value guarded by a lock: the one lock type of the project, for the few pieces of state
/// shared between threads (event loops, handler tasks, start-up code).
/// (Synchronization.Mutex would need macOS 15.)
public final class Locked<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()

    public init(_ value: Value) { stored = value }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }

    /// Reads or replaces the whole value (each access takes the lock once).
    public var value: Value {
        get { withLock { $0 } }
        set { withLock { $0 = newValue } }
    }
}
