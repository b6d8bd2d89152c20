import Foundation

/// What one transport call achieved.
public enum TransportResult: Sendable, Equatable {
    /// `read`: plaintext bytes placed in the buffer (always > 0). `write`: plaintext bytes
    /// accepted (the transport owns them from now on; the caller drops them).
    case bytes(Int)
    /// Nothing can move now; the event loop will report the socket ready again.
    case wouldBlock
    /// The peer ended the stream (end of file, or a TLS close_notify).
    case closed
    /// A hard error: errno, or 0 when the failure is not a system call's (a TLS protocol error).
    case failed(Int32)
    /// `flushPending`: nothing is left to send.
    case done
}

/// Moves bytes between the socket and the parser; plain TCP passes them through, TLS encrypts.
///
/// The connection owns one transport and calls it on its event-loop thread only. The contract:
/// - `read` fills as much of the buffer as it can. A *short* read (fewer bytes than the buffer
///   holds) promises that nothing more is available right now, neither in the socket nor
///   inside the transport: the connection stops reading until epoll reports the socket
///   readable again. (A TLS transport therefore loops until the socket would block or the
///   buffer is full.) A full read makes the connection read again.
/// - `write` takes what it can; `.wouldBlock` means it took nothing. Ciphertext a transport
///   could not send yet is its own to keep: it says so with `wantsWritable`, and the
///   connection then watches for writability and calls `flushPending`.
/// - `isHandshaking` is true until the transport can carry requests (TLS handshake). While it
///   is, the connection applies the *header* deadline from the moment of accept, so a client
///   that stalls its handshake is cut off like one that stalls its request head.
/// - `close` releases everything, including the descriptor.
public protocol ConnectionTransport: AnyObject {
    func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportResult
    func write(_ bytes: UnsafeRawBufferPointer) -> TransportResult
    /// `first` then `second`, as one write where the transport can (`.bytes` counts both).
    func write(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> TransportResult
    /// False for TLS: files are then read and sent through `write` instead of `sendfile`.
    var canSendFile: Bool { get }
    /// True when the transport holds bytes to send (handshake records, encrypted data).
    var wantsWritable: Bool { get }
    /// Pushes pending bytes to the socket: `.done` when nothing is left, else `.wouldBlock`/`.failed`.
    func flushPending() -> TransportResult
    /// True while the connection cannot carry requests yet (the TLS handshake).
    var isHandshaking: Bool { get }
    /// True when the next read starts a handshake's costly step (TLS: the key exchange and
    /// signature answering a ClientHello). The loop bounds how many it starts per turn.
    var readStartsHandshake: Bool { get }
    func close()
}

extension ConnectionTransport {
    public var isHandshaking: Bool { false }
    public var readStartsHandshake: Bool { false }

    /// Two writes: what a transport that must frame its output (TLS records) does anyway.
    public func write(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> TransportResult {
        let head = first.isEmpty ? .bytes(0) : write(first)
        guard case .bytes(let n) = head, n == first.count else { return head }
        switch write(second) {
        case .bytes(let m): return .bytes(n + m)
        case let other: return n > 0 ? .bytes(n) : other   // the failure shows at the next write
        }
    }
}

/// Makes the transport for a freshly accepted socket (non-blocking, TCP_NODELAY set). It runs
/// on the event loop that will own the connection; throwing closes the socket at once.
public typealias ConnectionTransportFactory = @Sendable (_ fd: Int32) throws -> any ConnectionTransport

/// Plain TCP: bytes pass straight through to the socket.
public final class PlainTransport: ConnectionTransport {
    public let fd: Int32

    public init(fd: Int32) { self.fd = fd }

    public static let factory: ConnectionTransportFactory = { PlainTransport(fd: $0) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportResult {
        Self.result(Socket.read(fd, into: buffer))
    }

    public func write(_ bytes: UnsafeRawBufferPointer) -> TransportResult {
        Self.result(Socket.write(fd, bytes))
    }

    public func write(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> TransportResult {
        Self.result(Socket.write(fd, first, second))
    }

    public var canSendFile: Bool { true }
    public var wantsWritable: Bool { false }
    public func flushPending() -> TransportResult { .done }

    public func close() { Glibc.close(fd) }

    private static func result(_ io: Socket.IOResult) -> TransportResult {
        switch io {
        case .done(let n): .bytes(n)
        case .wouldBlock: .wouldBlock
        case .closed: .closed
        case .failed(let code): .failed(code)
        }
    }
}
