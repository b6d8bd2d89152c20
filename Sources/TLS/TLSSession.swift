import COpenSSL
import Foundation

/// One TLS connection's state machine, with no socket of its own: the caller's event loop
/// hands it the ciphertext it received (`receive`), takes the ciphertext it must send
/// (`pendingOutput` / `consumeOutput`), and reads and writes plaintext in between. Nothing blocks.
///
/// Instead of OpenSSL's memory BIOs (whose buffers only grow, costing every idle connection
/// their peak size), a small BIO of our own reads straight from the caller's receive buffer and
/// appends to an output array that is freed whenever it has been sent: an idle connection keeps
/// only OpenSSL's session state. Use it from one thread at a time.
public final class TLSSession {
    public enum Outcome: Equatable {
        /// Plaintext bytes read or written (0 from `handshake` when it is complete).
        case bytes(Int)
        /// More ciphertext from the peer is needed first.
        case wantInput
        /// The peer closed the TLS session (close_notify).
        case closed
        /// A protocol error; the connection is unusable. The reason is safe to log.
        case failed(String)
    }

    private let ssl: OpaquePointer
    /// Ciphertext the caller lent us for the current `receive` call: OpenSSL reads it in place
    /// (no copy into a per-connection buffer). Valid only inside `receive`, which sets it to nil
    /// before returning, after copying what OpenSSL left into `carried`. `TLSEngineTests` feed
    /// records split at every byte and several records at once (ASan: a read after the call
    /// would be reported).
    private var lent: UnsafeRawBufferPointer?
    private var lentOffset = 0
    /// Ciphertext left over when a `receive` call ended before OpenSSL took all of it.
    private var carried: [UInt8] = []
    private var carriedOffset = 0
    /// Ciphertext waiting to be sent.
    private var output: [UInt8] = []
    private var outputOffset = 0

    /// A session on `context`'s side. A client names the server (`serverName`): it is sent as
    /// SNI (unless an IP address) and the certificate must match it.
    public init(context: TLSContext, serverName: String? = nil) throws(TLSError) {
        guard let ssl = SSL_new(context.handle) else { throw TLSError.openSSL("cannot create a TLS session") }
        self.ssl = ssl
        guard let bio = BIO_new(Self.bioMethod) else {
            SSL_free(ssl)
            throw TLSError.openSSL("cannot create a TLS session")
        }
        BIO_set_data(bio, Unmanaged.passUnretained(self).toOpaque())
        BIO_set_init(bio, 1)
        SSL_set_bio(ssl, bio, bio)   // the same BIO both ways: SSL takes its one reference
        if context.isServer {
            SSL_set_accept_state(ssl)
        } else {
            SSL_set_connect_state(ssl)
            if let serverName {
                let bare = serverName.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
                if IPAddressText.isAddress(bare) {
                    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), bare)
                } else {
                    _ = om_ssl_set_tlsext_host_name(ssl, bare)
                    _ = SSL_set1_host(ssl, bare)
                }
            }
        }
    }

    deinit { SSL_free(ssl) }   // frees the BIO too; it points at us, so no callback can follow

    // MARK: input

    /// Runs `body` with `ciphertext` available to OpenSSL; what it has not consumed by the end
    /// is kept for the next call.
    public func receive<R>(_ ciphertext: UnsafeRawBufferPointer, _ body: () -> R) -> R {
        lent = ciphertext
        lentOffset = 0
        defer {
            if let lent, lentOffset < lent.count {
                if carriedOffset == carried.count { carried.removeAll(keepingCapacity: false); carriedOffset = 0 }
                carried.append(contentsOf: lent[lentOffset...])
            }
            lent = nil
        }
        return body()
    }

    /// Received bytes not yet returned by `read`: ciphertext kept from an earlier `receive`, or
    /// a record OpenSSL decrypted but could not fit in the caller's buffer.
    public var hasBufferedInput: Bool {
        carriedOffset < carried.count || (lent.map { lentOffset < $0.count } ?? false) || SSL_has_pending(ssl) == 1
    }

    /// Feeds OpenSSL from the carried bytes first, then the lent buffer.
    private func takeInput(into destination: UnsafeMutableRawBufferPointer) -> Int {
        var written = 0
        if carriedOffset < carried.count {
            let n = min(destination.count, carried.count - carriedOffset)
            carried.withUnsafeBytes { source in
                destination.baseAddress!.copyMemory(from: source.baseAddress! + carriedOffset, byteCount: n)
            }
            carriedOffset += n
            written = n
            if carriedOffset == carried.count { carried = []; carriedOffset = 0 }
        }
        if let lent, written < destination.count, lentOffset < lent.count {
            let n = min(destination.count - written, lent.count - lentOffset)
            (destination.baseAddress! + written).copyMemory(from: lent.baseAddress! + lentOffset, byteCount: n)
            lentOffset += n
            written += n
        }
        return written
    }

    // MARK: TLS operations

    public var isHandshakeComplete: Bool { SSL_is_init_finished(ssl) == 1 }

    /// Advances the handshake; `.bytes(0)` once it is complete.
    public func handshake() -> Outcome {
        if let failure { return .failed(failure) }
        if isHandshakeComplete { return .bytes(0) }
        ERR_clear_error()
        let rc = SSL_do_handshake(ssl)
        return rc == 1 ? .bytes(0) : outcome(of: rc)
    }

    /// Decrypts into `buffer` (drives the handshake first if needed).
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Outcome {
        ERR_clear_error()
        var n = 0
        let rc = SSL_read_ex(ssl, buffer.baseAddress, buffer.count, &n)
        return rc == 1 ? .bytes(n) : outcome(of: rc)
    }

    /// Encrypts all of `plaintext` into the pending output (the output never refuses bytes;
    /// callers bound it by writing only when `pendingOutput` is drained).
    public func write(_ plaintext: UnsafeRawBufferPointer) -> Outcome {
        guard !plaintext.isEmpty else { return .bytes(0) }
        ERR_clear_error()
        var n = 0
        let rc = SSL_write_ex(ssl, plaintext.baseAddress, plaintext.count, &n)
        return rc == 1 ? .bytes(n) : outcome(of: rc)
    }

    /// Queues a close_notify alert (sent with the rest of the output).
    public func close() {
        guard isHandshakeComplete else { return }
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// The first protocol error: a session that failed stays failed, with its first reason.
    private var failure: String?

    private func outcome(of rc: Int32) -> Outcome {
        if let failure { return .failed(failure) }
        let error = SSL_get_error(ssl, rc)
        switch error {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return .wantInput
        case SSL_ERROR_ZERO_RETURN:
            return .closed
        case SSL_ERROR_SYSCALL:
            ERR_clear_error()
            failure = "unexpected end of the TLS stream"
        default:
            let reason = OpenSSLErrors.drain()
            failure = reason.isEmpty ? "TLS error \(error)" : reason
        }
        return .failed(failure ?? "")
    }

    // MARK: output

    /// Ciphertext waiting to be sent.
    public var pendingOutputCount: Int { output.count - outputOffset }

    /// Lends the pending ciphertext to `body` (e.g. a socket write), which answers how many
    /// bytes it sent.
    public func sendOutput(_ body: (UnsafeRawBufferPointer) -> Int) {
        guard outputOffset < output.count else { return }
        let sent = output.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[outputOffset...])) }
        outputOffset += max(0, sent)
        if outputOffset >= output.count {
            output = []   // freed: an idle connection holds no output buffer
            outputOffset = 0
        }
    }

    // MARK: facts

    /// Why the peer's certificate was refused, in OpenSSL's words ("certificate has expired",
    /// "self-signed certificate", "hostname mismatch"); nil when it was accepted or not checked yet.
    public var certificateProblem: String? {
        let result = SSL_get_verify_result(ssl)
        guard result != X509_V_OK else { return nil }
        return X509_verify_cert_error_string(result).map { String(cString: $0) } ?? "certificate error \(result)"
    }

    /// "TLSv1.3" or "TLSv1.2".
    public var protocolVersion: String { String(cString: SSL_get_version(ssl)) }

    /// The negotiated cipher suite's OpenSSL name ("" before the handshake).
    public var cipherName: String {
        SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) } ?? ""
    }

    /// The protocol chosen by ALPN ("http/1.1"), nil when the client offered none.
    public var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    // MARK: the BIO
    //
    // OpenSSL calls these with C pointers and lengths; `Unmanaged` carries `self` through the
    // BIO's data slot without a retain cycle (the session owns the SSL, which owns the BIO).

    fileprivate func appendOutput(_ bytes: UnsafeRawBufferPointer) {
        output.append(contentsOf: bytes)
    }

    /// One BIO type for every session; OpenSSL calls it back on the thread driving the session.
    nonisolated(unsafe) private static let bioMethod: OpaquePointer = {
        let method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "openmarket-tls")!
        _ = BIO_meth_set_write(method) { bio, data, length in
            guard let bio, let data, length > 0, let owner = BIO_get_data(bio) else { return 0 }
            om_bio_clear_retry_flags(bio)
            let session = Unmanaged<TLSSession>.fromOpaque(owner).takeUnretainedValue()
            session.appendOutput(UnsafeRawBufferPointer(start: data, count: Int(length)))
            return length
        }
        _ = BIO_meth_set_read(method) { bio, data, length in
            guard let bio, let data, length > 0, let owner = BIO_get_data(bio) else { return 0 }
            om_bio_clear_retry_flags(bio)
            let session = Unmanaged<TLSSession>.fromOpaque(owner).takeUnretainedValue()
            let n = session.takeInput(into: UnsafeMutableRawBufferPointer(start: data, count: Int(length)))
            if n == 0 {
                om_bio_set_retry_read(bio)
                return -1
            }
            return Int32(n)
        }
        _ = BIO_meth_set_ctrl(method) { _, command, _, _ in
            command == Int32(om_bio_ctrl_flush) ? 1 : 0
        }
        return method
    }()
}

enum IPAddressText {
    static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
