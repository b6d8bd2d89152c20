import Foundation
import NetworkIO
import TLS

/// The bytes of one upstream connection, plain or inside TLS: `ClientConnection` reads and writes
/// plaintext through it and never knows which. Used on the client's event-loop thread only.
protocol ClientStream: AnyObject {
    /// Advances the TLS handshake (a plain stream is ready at once).
    func handshake() -> HandshakeStep
    /// Sends plaintext; `.done(n)` says how much of it was taken.
    func write(_ bytes: UnsafeRawBufferPointer) -> Socket.IOResult
    /// Reads plaintext; `.wouldBlock` when the socket has nothing more to give.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Socket.IOResult
    /// Bytes taken by `write` (or the handshake) that still wait for the socket.
    var hasPendingOutput: Bool { get }
    /// Sends what waits; `.wouldBlock` leaves the rest for the next writable event.
    func flushPending() -> Socket.IOResult
    /// Ends the stream politely (TLS close_notify, if the socket takes it now); the caller closes the socket.
    func shutdown()
}

enum HandshakeStep: Equatable {
    case done
    /// Wait for the socket: readable (always), and writable when output is pending.
    case waiting
    case failed(String)
}

/// A TCP socket as is.
final class PlainStream: ClientStream {
    private let fd: Int32

    init(fd: Int32) { self.fd = fd }

    func handshake() -> HandshakeStep { .done }
    func write(_ bytes: UnsafeRawBufferPointer) -> Socket.IOResult { Socket.write(fd, bytes) }
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Socket.IOResult { Socket.read(fd, into: buffer) }
    var hasPendingOutput: Bool { false }
    func flushPending() -> Socket.IOResult { .done(0) }
    func shutdown() {}
}

/// HTTPS: a client `TLSSession` (SNI and the certificate checked against the URL's host, as the
/// context's trust decides) between the socket and the connection.
final class TLSStream: ClientStream {
    private let fd: Int32
    private let session: TLSSession
    /// Ciphertext on its way in; shared by every connection of the pool (one thread).
    private let scratch: UnsafeMutableRawBufferPointer
    private var failure: String?

    init(fd: Int32, context: TLSContext, serverName: String, scratch: UnsafeMutableRawBufferPointer) throws(TLSError) {
        self.fd = fd
        self.scratch = scratch
        session = try TLSSession(context: context, serverName: serverName)
    }

    func handshake() -> HandshakeStep {
        while true {
            switch session.handshake() {
            case .bytes:
                if case .failed(let code) = flushPending() { return fail("the connection broke during the TLS handshake (\(Self.text(code)))") }
                return .done
            case .closed:
                return fail("the server closed the connection during the TLS handshake")
            case .failed(let reason):
                _ = flushPending()   // the alert, if the socket takes it
                return fail(describe(reason))
            case .wantInput:
                if case .failed(let code) = flushPending() { return fail("the connection broke during the TLS handshake (\(Self.text(code)))") }
                switch Socket.read(fd, into: scratch) {
                case .done(let n):
                    let step = session.receive(UnsafeRawBufferPointer(rebasing: scratch[0..<n])) { session.handshake() }
                    if case .failed(let reason) = step {
                        _ = flushPending()
                        return fail(describe(reason))
                    }
                    if case .bytes = step { continue }   // done: the loop flushes and reports it
                case .wouldBlock:
                    return .waiting
                case .closed:
                    return fail("the server closed the connection during the TLS handshake")
                case .failed(let code):
                    return fail("the connection broke during the TLS handshake (\(Self.text(code)))")
                }
            }
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Socket.IOResult {
        if failure != nil { return .failed(EPROTO) }
        if hasPendingOutput {
            switch flushPending() {
            case .done: break
            case .wouldBlock: return .wouldBlock
            case let other: return other
            }
        }
        // Bounded: at most this much ciphertext waits for the socket (a 5 MB upload goes in steps).
        let chunk = UnsafeRawBufferPointer(rebasing: bytes.prefix(64 * 1024))
        switch session.write(chunk) {
        case .bytes(let n):
            if case .failed(let code) = flushPending() { return .failed(code) }
            return .done(n)
        case .wantInput: return .wouldBlock
        case .closed: return .closed
        case .failed(let reason):
            failure = reason
            return .failed(EPROTO)
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Socket.IOResult {
        if failure != nil { return .failed(EPROTO) }
        while true {
            // What OpenSSL can already decrypt comes first (a record larger than `buffer`).
            if session.hasBufferedInput {
                switch session.read(into: buffer) {
                case .bytes(let n) where n > 0: return .done(n)
                case .bytes, .wantInput: break
                case .closed: return .closed
                case .failed(let reason):
                    failure = reason
                    return .failed(EPROTO)
                }
            }
            switch Socket.read(fd, into: scratch) {
            case .done(let n):
                let step = session.receive(UnsafeRawBufferPointer(rebasing: scratch[0..<n])) { session.read(into: buffer) }
                switch step {
                case .bytes(let m) where m > 0: return .done(m)
                case .bytes, .wantInput:
                    // A record that is not data (a session ticket), or half a record: read on. OpenSSL
                    // may want to answer (a key update): send that first.
                    if case .failed(let code) = flushPending() { return .failed(code) }
                    continue
                case .closed: return .closed
                case .failed(let reason):
                    failure = reason
                    return .failed(EPROTO)
                }
            case let other:
                return other
            }
        }
    }

    var hasPendingOutput: Bool { session.pendingOutputCount > 0 }

    func flushPending() -> Socket.IOResult {
        var sent = 0
        while session.pendingOutputCount > 0 {
            var outcome = Socket.IOResult.done(0)
            session.sendOutput { pending in
                outcome = Socket.write(fd, pending)
                if case .done(let n) = outcome { return n }
                return 0
            }
            switch outcome {
            case .done(let n): sent += n
            default: return outcome
            }
        }
        return .done(sent)
    }

    func shutdown() {
        guard failure == nil, session.isHandshakeComplete else { return }
        session.close()
        _ = flushPending()
    }

    /// A refused certificate says why ("certificate has expired"); other failures as OpenSSL put them.
    private func describe(_ reason: String) -> String {
        if let problem = session.certificateProblem {
            return HTTPClientError.certificateRefused + problem
        }
        return "the TLS handshake failed: \(reason)"
    }

    private func fail(_ reason: String) -> HandshakeStep {
        failure = reason
        return .failed(reason)
    }

    private static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}
