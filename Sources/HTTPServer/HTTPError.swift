/// An error a handler (or the body parsers) throws to answer with a specific status.
/// The message is sent to the client as text/plain, so it must never contain a secret.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: Int
    public var message: String

    public init(status: Int, message: String? = nil) {
        self.status = status
        self.message = message ?? HTTPStatus.reason(status)
    }

    public var description: String { "\(status) \(message)" }
}
