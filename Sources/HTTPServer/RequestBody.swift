import Foundation

/// The body of a request, delivered by the connection as it arrives.
///
/// Read it once, either whole with `collect()` or piece by piece with `chunks()`. The server
/// has already refused bodies over the route's limit, so `collect()` is bounded.
public final class RequestBody: Sendable {
    private struct State {
        var chunks: [Data] = []
        var finished = false
        var failure: (any Error)?
        var waiter: CheckedContinuation<Void, Never>?
        var received = 0
        var spoolFiles: [String] = []
        var buffered = 0
        /// Set by the connection when it stopped reading because too much is buffered.
        var onDrained: (@Sendable () -> Void)?
    }

    /// Above this many unread bytes the connection stops reading the socket until the handler
    /// catches up, so a fast uploader cannot make the server buffer without bound.
    static let highWater = 1024 * 1024

    private let state: Locked<State>

    /// A complete body, for handlers called directly (tests) and for requests without a body.
    public init(_ data: Data = Data()) {
        var initial = State()
        if !data.isEmpty { initial.chunks = [data]; initial.received = data.count }
        initial.finished = true
        state = Locked(initial)
    }

    /// A body the connection will fill.
    init(streaming: ()) {
        state = Locked(State())
    }

    /// The whole body.
    public func collect() async throws -> Data {
        var result = Data()
        while let chunk = try await next() { result.append(chunk) }
        return result
    }

    /// The body as a stream of pieces, in arrival order.
    public func chunks() -> AsyncThrowingStream<Data, any Error> {
        AsyncThrowingStream { [self] in try await self.next() }
    }

    /// The next piece, or nil at the end. Throws when the client went away or sent a broken body.
    func next() async throws -> Data? {
        while true {
            var drained: (@Sendable () -> Void)?
            let outcome: Result<Data?, any Error>? = state.withLock { s in
                if !s.chunks.isEmpty {
                    let chunk = s.chunks.removeFirst()
                    s.buffered -= chunk.count
                    if s.buffered < Self.highWater / 2, let callback = s.onDrained {
                        s.onDrained = nil
                        drained = callback
                    }
                    return .success(chunk)
                }
                if let failure = s.failure { return .failure(failure) }
                if s.finished { return .success(nil) }
                return nil
            }
            drained?()
            if let outcome { return try outcome.get() }
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { s -> Bool in
                    if !s.chunks.isEmpty || s.finished || s.failure != nil { return true }
                    s.waiter = c
                    return false
                }
                if resumeNow { c.resume() }
            }
        }
    }

    // MARK: producer side (the connection)

    func append(_ data: Data) {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard !s.finished, s.failure == nil else { return nil }
            s.chunks.append(data)
            s.received += data.count
            s.buffered += data.count
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume()
    }

    func finish() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.finished = true
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume()
    }

    func fail(_ error: any Error) {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard !s.finished else { return nil }
            s.failure = error
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume()
    }

    /// If more than `highWater` bytes wait unread, registers `resume` to be called once the
    /// handler has read enough, and returns true: the caller should stop reading for now.
    func shouldPause(resume: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { s in
            guard s.buffered >= Self.highWater, s.failure == nil else { return false }
            s.onDrained = resume
            return true
        }
    }

    /// True while the connection has stopped reading because `highWater` bytes wait unread.
    var isReadingPaused: Bool { state.withLock { $0.onDrained != nil } }

    // MARK: temporary files made while parsing this body

    func registerSpoolFile(_ path: String) {
        state.withLock { $0.spoolFiles.append(path) }
    }

    /// Deletes the multipart spool files. The server calls it once the response is produced.
    func removeSpoolFiles() {
        let paths = state.withLock { s -> [String] in
            defer { s.spoolFiles = [] }
            return s.spoolFiles
        }
        for path in paths { unlink(path) }
    }
}
