import Foundation

/// A value guarded by a lock, for the few pieces of state shared between the event loop
/// thread and handler tasks. (Synchronization.Mutex would need macOS 15.)
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
