import Foundation
import NetworkIO
import TLS

/// HTTPS on one accepted socket: a `TLSSession` fed from the socket by the connection's event
/// loop. The parser above it only ever sees plaintext.
///
/// A client that speaks plain HTTP to this port (its first byte is an ASCII letter where a TLS
/// record starts with 0x16) gets a short 400 page naming the `https://` address instead.
public final class TLSTransport: ConnectionTransport {
    private enum Mode {
        /// Nothing received yet: the first byte decides.
        case undecided
        case tls
        /// A plain-HTTP request is being read (up to its head) to be answered with a 400.
        case refusingPlainHTTP
        /// The 400 is queued or sent; the connection ends.
        case refused
    }

    public let fd: Int32
    private let session: TLSSession
    private var mode = Mode.undecided
    private var peerClosed = false
    private var failed = false
    /// The plain-HTTP request head read so far, and then the 400 answer being sent.
    private var plainBytes: [UInt8] = []
    private var plainOffset = 0

    /// Which names the 400 page for plain HTTP may show (nil: any plausible name).
    private let plainHTTPHosts: PlainHTTPHosts?

    public init(fd: Int32, context: TLSContext, plainHTTPHosts: PlainHTTPHosts? = nil) throws {
        self.fd = fd
        self.plainHTTPHosts = plainHTTPHosts
        session = try TLSSession(context: context)
    }

    /// Wraps every accepted socket of a server in TLS with `context`.
    public static func factory(context: TLSContext, plainHTTPHosts: PlainHTTPHosts? = nil) -> ConnectionTransportFactory {
        { fd in try TLSTransport(fd: fd, context: context, plainHTTPHosts: plainHTTPHosts) }
    }

    public var canSendFile: Bool { false }
    public var isHandshaking: Bool { mode != .tls || !session.isHandshakeComplete }
    /// Nothing received yet: the first read answers the ClientHello (key exchange, signature).
    public var readStartsHandshake: Bool { mode == .undecided }
    public var wantsWritable: Bool { session.pendingOutputCount > 0 || (mode == .refused && plainOffset < plainBytes.count) }

    /// The protocol negotiated, for tests ("TLSv1.3").
    public var protocolVersion: String { session.protocolVersion }

    // MARK: reading
    //
    // `ConnectionTransport` lends raw buffers (the loop's receive buffer, a response's bytes):
    // they are decrypted into and encrypted from in place, and kept by nobody after the call.
    // `TLSServerTests` (under ASan in CI) run the server's suites over TLS.

    public func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportResult {
        if failed { return .failed(0) }
        if mode == .refusingPlainHTTP || mode == .refused { return readPlainRequest() }
        var filled = 0
        let scratch = ReceiveScratch.current
        while filled < buffer.count {
            // Whatever OpenSSL can already decrypt comes first.
            if session.hasBufferedInput {
                switch drain(into: buffer, filled: &filled) {
                case .keepGoing: break
                case .stop(let result): return filled > 0 ? .bytes(filled) : result
                }
                if filled == buffer.count { break }
            }
            if peerClosed { return filled > 0 ? .bytes(filled) : .closed }
            switch Socket.read(fd, into: scratch) {
            case .done(let n):
                if mode == .undecided {
                    let first = scratch.load(as: UInt8.self)
                    if Self.isLetter(first) {
                        mode = .refusingPlainHTTP
                        plainBytes.append(contentsOf: scratch[0..<n])
                        return readPlainRequest()
                    }
                    mode = .tls   // 0x16 is a handshake record; anything else fails in OpenSSL
                }
                let step = session.receive(UnsafeRawBufferPointer(rebasing: scratch[0..<n])) {
                    drain(into: buffer, filled: &filled)
                }
                if case .stop(let result) = step { return filled > 0 ? .bytes(filled) : result }
                // A short read emptied the socket: asking again would only answer EAGAIN (a
                // system call per request). Epoll reports the socket when more comes.
                if n < scratch.count && !session.hasBufferedInput && !peerClosed {
                    return filled > 0 ? .bytes(filled) : .wouldBlock
                }
            case .wouldBlock:
                return filled > 0 ? .bytes(filled) : .wouldBlock
            case .closed:
                peerClosed = true
                return filled > 0 ? .bytes(filled) : .closed
            case .failed(let code):
                failed = true
                return .failed(code)
            }
        }
        return .bytes(filled)
    }

    private enum Step { case keepGoing, stop(TransportResult) }

    /// Decrypts into the rest of `buffer` until OpenSSL needs more ciphertext, then sends
    /// what the handshake or the session wants sent.
    private func drain(into buffer: UnsafeMutableRawBufferPointer, filled: inout Int) -> Step {
        while filled < buffer.count {
            switch session.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) {
            case .bytes(let n):
                filled += n
            case .wantInput:
                return sendHandshakeOutput()
            case .closed:
                peerClosed = true
                _ = flushPending()
                return .stop(.closed)
            case .failed:
                // Bad records or a refused handshake (old version, garbage): OpenSSL queued an
                // alert; send it if the socket takes it, then the connection is done.
                failed = true
                _ = flushPending()
                return .stop(.failed(0))
            }
        }
        return sendHandshakeOutput()
    }

    private func sendHandshakeOutput() -> Step {
        if case .failed(let code) = flushPending() {
            failed = true
            return .stop(.failed(code))
        }
        return .keepGoing
    }

    // MARK: writing

    public func write(_ bytes: UnsafeRawBufferPointer) -> TransportResult {
        if let refusal = readyToWrite() { return refusal }
        // Bounded: at most this much ciphertext is kept waiting for the socket.
        let chunk = UnsafeRawBufferPointer(rebasing: bytes.prefix(Self.maxWriteChunk))
        switch session.write(chunk) {
        case .bytes(let n):
            if case .failed(let code) = flushPending() { return .failed(code) }
            return .bytes(n)
        case .wantInput:
            return .wouldBlock
        case .closed:
            return .closed
        case .failed:
            failed = true
            return .failed(0)
        }
    }

    static let maxWriteChunk = 64 * 1024

    /// Why a write cannot start now (a failed session, a handshake still running, older
    /// ciphertext the socket has not taken), or nil when it can.
    private func readyToWrite() -> TransportResult? {
        if failed { return .failed(0) }
        guard mode == .tls, session.isHandshakeComplete else { return .wouldBlock }
        guard session.pendingOutputCount > 0 else { return nil }
        switch flushPending() {
        case .done: return nil
        case .failed(let code): return .failed(code)
        default: return .wouldBlock
        }
    }

    /// Head and body encrypted together and sent with one socket write (two records, one
    /// `sendto`), as plain TCP sends them with one `sendmsg`: the default's two writes cost a
    /// system call per answer.
    public func write(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> TransportResult {
        if let refusal = readyToWrite() { return refusal }
        // Bounded like `write`: at most this much ciphertext waits for the socket.
        var taken = 0
        for part in [first, second] where taken < Self.maxWriteChunk && !part.isEmpty {
            if taken > 0 && taken < first.count { break }   // the head went only in part
            switch session.write(UnsafeRawBufferPointer(rebasing: part.prefix(Self.maxWriteChunk - taken))) {
            case .bytes(let n):
                taken += n
            case .wantInput:
                if taken == 0 { return .wouldBlock }
            case .closed:
                if taken == 0 { return .closed }
            case .failed:
                failed = true
                if taken == 0 { return .failed(0) }
            }
            if failed || taken < first.count { break }
        }
        if case .failed(let code) = flushPending() { return .failed(code) }
        return .bytes(taken)
    }

    public func flushPending() -> TransportResult {
        if mode == .refused { return flushRefusal() }
        var result = TransportResult.done
        while session.pendingOutputCount > 0 {
            var outcome = Socket.IOResult.done(0)
            session.sendOutput { pending in
                outcome = Socket.write(fd, pending)
                if case .done(let n) = outcome { return n }
                return 0
            }
            switch outcome {
            case .done: continue
            case .wouldBlock: result = .wouldBlock
            case .closed: result = .failed(EPIPE)
            case .failed(let code): result = .failed(code)
            }
            break
        }
        return result
    }

    public func close() {
        if mode == .tls && !failed {
            session.close()   // close_notify, sent if the socket takes it now
            _ = flushPending()
        } else if mode == .refused {
            _ = flushRefusal()
            // Our 400 must not be destroyed by a reset for unread input: half-close, discard.
            shutdown(fd, Int32(SHUT_WR))
            var sink = [UInt8](repeating: 0, count: 4096)
            while recv(fd, &sink, sink.count, Int32(MSG_DONTWAIT)) > 0 {}
        }
        Glibc.close(fd)
    }

    // MARK: plain HTTP on the HTTPS port

    /// Reads the plain request's head (up to 8 KiB), then answers it with the 400 page.
    private func readPlainRequest() -> TransportResult {
        if mode == .refused {
            return flushRefusal() == .done ? .closed : .wouldBlock
        }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !Self.containsHeadEnd(plainBytes) && plainBytes.count < 8192 && !peerClosed {
            let result = chunk.withUnsafeMutableBytes { Socket.read(fd, into: $0) }
            switch result {
            case .done(let n): plainBytes.append(contentsOf: chunk[0..<n])
            case .wouldBlock: return .wouldBlock
            case .closed: peerClosed = true
            case .failed(let code): failed = true; return .failed(code)
            }
        }
        plainBytes = PlainHTTPRefusal.response(requestHead: plainBytes, localPort: Socket.localPort(fd), hosts: plainHTTPHosts)
        plainOffset = 0
        mode = .refused
        return flushRefusal() == .done ? .closed : .wouldBlock
    }

    private func flushRefusal() -> TransportResult {
        while plainOffset < plainBytes.count {
            let result = plainBytes.withUnsafeBytes { Socket.write(fd, UnsafeRawBufferPointer(rebasing: $0[plainOffset...])) }
            switch result {
            case .done(let n): plainOffset += n
            case .wouldBlock: return .wouldBlock
            case .closed: return .failed(EPIPE)
            case .failed(let code): return .failed(code)
            }
        }
        return .done
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    private static func containsHeadEnd(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return true
        }
        return false
    }
}

/// One receive buffer per event-loop thread for ciphertext on its way into OpenSSL, so idle
/// TLS connections hold no buffer of their own. Raw because a thread-specific slot holds a C
/// pointer (freed by the key's destructor when the thread ends); it is lent to `read(2)` and
/// to `TLSSession.receive` only for the length of one `read(into:)` call.
enum ReceiveScratch {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in pointer?.deallocate() }
        return key
    }()
    static let size = 32 * 1024

    static var current: UnsafeMutableRawBufferPointer {
        if let existing = pthread_getspecific(key) {
            return UnsafeMutableRawBufferPointer(start: existing, count: size)
        }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        pthread_setspecific(key, buffer)
        return UnsafeMutableRawBufferPointer(start: buffer, count: size)
    }
}
