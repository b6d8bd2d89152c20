import Foundation

/// The panel's port, set once the listener is bound (with port 0 the kernel picks it), read by
/// the host and origin checks on every request.
final class ListeningPort: @unchecked Sendable {
    private let lock = NSLock()
    private var port = 0

    var value: Int {
        get { lock.withLock { port } }
        set { lock.withLock { port = newValue } }
    }
}
