import Foundation

/// The application's end of a pushed stream (`HTTPResponse.stream`): `send` from any thread,
/// the bytes go out on the connection's event loop in the order sent.
///
/// Nothing queues without bound: bytes sent but not yet taken by the reader count against
/// `ServerLimits.maxStreamBacklog`, and a stream over it is dropped (its connection closes,
/// `onClose` actions run). Sending to a closed stream does nothing.
public final class EventStreamWriter: Sendable {
    private struct Shared {
        /// Nil once the stream is over (ended, dropped, or the client left).
        var connection: Connection?
        /// Bytes posted to the loop and not yet queued on the connection.
        var inTransit = 0
        var closeActions: [@Sendable () -> Void] = []
    }

    private let shared: Locked<Shared>
    private let loop: EventLoop
    let farewell: [UInt8]
    let chunked: Bool
    private let backlogLimit: Int

    init(connection: Connection, farewell: [UInt8], chunked: Bool, backlogLimit: Int) {
        shared = Locked(Shared(connection: connection))
        loop = connection.loop
        self.farewell = farewell
        self.chunked = chunked
        self.backlogLimit = backlogLimit
    }

    /// True until the stream ended or its connection closed.
    public var isOpen: Bool { shared.withLock { $0.connection != nil } }

    /// Queues `bytes` as the stream's next piece.
    public func send(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let target = shared.withLock { s -> Connection? in
            guard let connection = s.connection else { return nil }
            s.inTransit += bytes.count
            return connection
        }
        guard let target else { return }
        loop.execute { [self] in target.pushStreamPiece(bytes, from: self) }
    }

    public func send(_ text: String) { send(Array(text.utf8)) }

    /// Ends the stream (final chunk, then the connection closes).
    public func finish() {
        guard let target = shared.withLock({ $0.connection }) else { return }
        loop.execute { [self] in target.endPushedStream(self, farewell: false) }
    }

    /// Runs `action` once when the stream is over, on whichever thread notices (at once if it
    /// already is). Keep it short and thread-safe.
    public func onClose(_ action: @escaping @Sendable () -> Void) {
        let runNow = shared.withLock { s -> Bool in
            guard s.connection != nil else { return true }
            s.closeActions.append(action)
            return false
        }
        if runNow { action() }
    }

    /// `count` bytes reached the connection; true while what still waits for the reader
    /// (`buffered` on the connection plus what is in transit) stays within the limit.
    func arrived(_ count: Int, buffered: Int) -> Bool {
        shared.withLock { s in
            s.inTransit -= count
            return buffered + s.inTransit <= backlogLimit
        }
    }

    /// The stream is over: later sends do nothing, the close actions run.
    func detach() {
        let actions = shared.withLock { s -> [@Sendable () -> Void] in
            s.connection = nil
            defer { s.closeActions = [] }
            return s.closeActions
        }
        for action in actions { action() }
    }
}
