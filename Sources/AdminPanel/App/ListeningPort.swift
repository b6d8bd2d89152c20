import NetworkIO

/// The panel's port, set once the listener is bound (with port 0 the kernel picks it), read by
/// the host and origin checks on every request.
final class ListeningPort: Sendable {
    private let port = Locked(0)

    var value: Int {
        get { port.value }
        set { port.value = newValue }
    }
}
