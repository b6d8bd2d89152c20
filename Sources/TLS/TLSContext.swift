import COpenSSL
import Foundation

/// Settings shared by many TLS connections: one side (server or client), TLS 1.2 and 1.3 only,
/// ALPN `http/1.1`. A server context holds the certificate and key; a client context holds the
/// certificates it trusts. Thread-safe: OpenSSL's SSL_CTX may be shared once configured.
public final class TLSContext: @unchecked Sendable {
    let handle: OpaquePointer
    public let isServer: Bool
    /// SHA-256 of the server certificate, `AB:CD:…` (nil on a client context).
    /// Set while the context is built, never after (hence `@unchecked Sendable`).
    public private(set) var certificateFingerprint: String?

    private init(handle: OpaquePointer, isServer: Bool) {
        self.handle = handle
        self.isServer = isServer
    }

    deinit { SSL_CTX_free(handle) }

    /// A server context from PEM files: the certificate (its chain may follow it in the file)
    /// and its private key. The key file must not be readable or writable by group or others.
    /// Every failure is one line naming the file at fault.
    public static func server(certificateFile: String, keyFile: String) throws(TLSError) -> TLSContext {
        try KeyFilePermissions.check(keyFile)
        guard let handle = SSL_CTX_new(TLS_server_method()) else { throw TLSError.openSSL("cannot create a TLS context") }
        let context = TLSContext(handle: handle, isServer: true)
        try context.applyCommonSettings()
        // TLS 1.2 offers AEAD suites with forward secrecy only (ECDHE with AES-GCM or
        // ChaCha20-Poly1305): no CBC (padding oracles, Lucky13), no static RSA key exchange.
        // TLS 1.3's suites are all AEAD and stay as OpenSSL sets them.
        guard SSL_CTX_set_cipher_list(handle, Self.tls12ServerCiphers) == 1 else {
            throw TLSError.openSSL("cannot restrict the TLS 1.2 cipher suites")
        }
        ERR_clear_error()
        guard FileManager.default.isReadableFile(atPath: certificateFile) else {
            throw TLSError("cannot read the TLS certificate file \(certificateFile)")
        }
        guard SSL_CTX_use_certificate_chain_file(handle, certificateFile) == 1 else {
            throw TLSError.openSSL("the TLS certificate file \(certificateFile) holds no usable PEM certificate")
        }
        guard FileManager.default.isReadableFile(atPath: keyFile) else {
            throw TLSError("cannot read the TLS key file \(keyFile)")
        }
        guard SSL_CTX_use_PrivateKey_file(handle, keyFile, SSL_FILETYPE_PEM) == 1 else {
            throw TLSError.openSSL("the TLS key file \(keyFile) holds no usable PEM private key (or it does not match \(certificateFile))")
        }
        guard SSL_CTX_check_private_key(handle) == 1 else {
            throw TLSError.openSSL("the TLS key file \(keyFile) does not match the certificate in \(certificateFile)")
        }
        om_ssl_ctx_select_http11(handle)
        // Sessions resume across connections of this server only.
        _ = om_ssl_ctx_set_session_cache_mode(handle, Int(SSL_SESS_CACHE_SERVER))
        context.certificateFingerprint = SSL_CTX_get0_certificate(handle).map(CertificateFingerprint.sha256)
        return context
    }

    /// A client context that verifies servers: the system's CA store (unless `systemTrust` is
    /// false) plus the PEM certificates in `trustedCertificateFiles` (a private CA, or a
    /// self-signed server certificate trusted explicitly).
    public static func client(trustedCertificateFiles: [String] = [], systemTrust: Bool = true) throws(TLSError) -> TLSContext {
        guard let handle = SSL_CTX_new(TLS_client_method()) else { throw TLSError.openSSL("cannot create a TLS context") }
        let context = TLSContext(handle: handle, isServer: false)
        try context.applyCommonSettings()
        SSL_CTX_set_verify(handle, SSL_VERIFY_PEER, nil)
        if systemTrust && SSL_CTX_set_default_verify_paths(handle) != 1 {
            throw TLSError.openSSL("cannot load the system's trusted certificates")
        }
        for file in trustedCertificateFiles {
            guard SSL_CTX_load_verify_locations(handle, file, nil) == 1 else {
                throw TLSError.openSSL("cannot load trusted certificates from \(file)")
            }
        }
        guard om_ssl_ctx_offer_http11(handle) == 0 else { throw TLSError.openSSL("cannot set ALPN") }
        return context
    }

    /// The TLS 1.2 suites a server offers.
    static let tls12ServerCiphers = "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
        + "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
        + "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"

    private func applyCommonSettings() throws(TLSError) {
        guard om_ssl_ctx_set_min_proto_version(handle, om_tls1_2_version) == 1 else {
            throw TLSError.openSSL("cannot require TLS 1.2 or later")
        }
        _ = om_ssl_ctx_set_options(handle, om_op_no_renegotiation | om_op_no_compression | om_op_cipher_server_preference
                                   | om_op_ignore_unexpected_eof)
        // Idle connections give their 16 KiB record buffers back (memory per idle connection).
        _ = om_ssl_ctx_set_mode(handle, om_mode_release_buffers)
    }
}

/// Refuses a private key file that other users could read or change.
enum KeyFilePermissions {
    static func check(_ path: String) throws(TLSError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw TLSError("cannot read the TLS key file \(path): \(String(cString: strerror(errno)))")
        }
        let loose = info.st_mode & 0o077
        guard loose == 0 else {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw TLSError("refusing to start: the TLS key file \(path) is accessible to other users (mode \(mode)); run chmod 600 \(path)")
        }
    }
}

enum CertificateFingerprint {
    /// `AB:CD:…`, the form browsers show.
    static func sha256(_ certificate: OpaquePointer) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(certificate, EVP_sha256(), &digest, &length) == 1 else { return "" }
        return digest.prefix(Int(length)).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }
}
