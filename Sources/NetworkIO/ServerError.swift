/// Why a listener or event loop could not start.
public enum ServerError: Error, Sendable, CustomStringConvertible {
    case bind(String)
    case alreadyStarted
    case eventLoop(String)

    public var description: String {
        switch self {
        case .bind(let m): "Cannot start the server: \(m)"
        case .alreadyStarted: "The server was already started (a server starts once)"
        case .eventLoop(let m): "Event loop failure: \(m)"
        }
    }
}
