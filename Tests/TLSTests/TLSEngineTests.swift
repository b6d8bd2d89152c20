import Foundation
import Testing
import TestSupport
@testable import TLS
import COpenSSL

/// A fresh folder under the temporary directory, removed by the caller.
func temporaryFolder(_ label: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(label)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Runs `command` and answers its standard output (for checking against the openssl tool).
func run(_ command: String, _ arguments: [String]) throws -> String {
    try ChildProcess.run(command, arguments).output
}

/// Moves ciphertext between two sessions in memory until neither has anything to say.
func exchange(_ a: TLSSession, _ b: TLSSession, rounds: Int = 20, step: (TLSSession) -> Void) {
    for _ in 0..<rounds {
        step(a)
        step(b)
        var moved = false
        for (from, to) in [(a, b), (b, a)] where from.pendingOutputCount > 0 {
            moved = true
            from.sendOutput { bytes in
                to.receive(bytes) { step(to) }
                return bytes.count
            }
        }
        if !moved { return }
    }
}

func readAll(_ session: TLSSession) -> String {
    var text = ""
    var buffer = [UInt8](repeating: 0, count: 100)
    while case .bytes(let n) = buffer.withUnsafeMutableBytes({ session.read(into: $0) }), n > 0 {
        text += String(decoding: buffer[0..<n], as: UTF8.self)
    }
    return text
}

@Suite struct TLSEngineTests {
    @Test func selfSignedCertificateIsMadeOnceWithAPrivateKeyAndMatchesOpenSSLsFingerprint() throws {
        let folder = temporaryFolder("make")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tlsFolder = folder.appendingPathComponent("tls")
        let first = try SelfSignedCertificate.ensure(in: tlsFolder, names: ["localhost", "127.0.0.1", "::1", "Box.Local"])
        #expect(first.created)
        let keyMode = try FileManager.default.attributesOfItem(atPath: first.keyFile)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        let context = try TLSContext.server(certificateFile: first.certificateFile, keyFile: first.keyFile)
        let printed = try #require(context.certificateFingerprint)
        let tool = try run("/usr/bin/openssl", ["x509", "-noout", "-fingerprint", "-sha256", "-in", first.certificateFile])
        #expect(tool.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("=" + printed))
        #expect(printed.count == 32 * 3 - 1)
        let text = try run("/usr/bin/openssl", ["x509", "-noout", "-text", "-in", first.certificateFile])
        #expect(text.contains("DNS:localhost"))
        #expect(text.contains("DNS:box.local"))
        #expect(text.contains("IP Address:127.0.0.1"))
        #expect(text.contains("IP Address:0:0:0:0:0:0:0:1"))
        #expect(text.contains("prime256v1") || text.contains("P-256"))

        // Reused while it covers the names; made again when a name is new.
        let again = try SelfSignedCertificate.ensure(in: tlsFolder, names: ["localhost", "127.0.0.1"])
        #expect(!again.created)
        #expect(SelfSignedCertificate.fingerprint(ofCertificateFile: again.certificateFile) == printed)
        let widened = try SelfSignedCertificate.ensure(in: tlsFolder, names: ["localhost", "10.1.2.3"])
        #expect(widened.created)
        #expect(SelfSignedCertificate.fingerprint(ofCertificateFile: widened.certificateFile) != printed)
    }

    @Test func namesThatCannotBeInACertificateAreLeftOut() {
        #expect(SelfSignedCertificate.usableNames(["a.example", "x,DNS:evil", "bad name", "[::1]", "A.EXAMPLE", ""])
                == ["a.example", "::1"])
    }

    @Test func keyReadableByOthersRefusesToStartAndSaysWhy() throws {
        let folder = temporaryFolder("perm")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try SelfSignedCertificate.ensure(in: folder, names: ["localhost"])
        chmod(files.keyFile, 0o644)
        #expect {
            try TLSContext.server(certificateFile: files.certificateFile, keyFile: files.keyFile)
        } throws: { error in
            let text = "\(error)"
            return text.contains(files.keyFile) && text.contains("chmod 600") && !text.contains("\n")
        }
    }

    @Test func unreadableOrMismatchedFilesAreOneLineErrorsNamingTheFile() throws {
        let folder = temporaryFolder("bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let one = try SelfSignedCertificate.ensure(in: folder.appendingPathComponent("one"), names: ["localhost"])
        let two = try SelfSignedCertificate.ensure(in: folder.appendingPathComponent("two"), names: ["localhost"])
        func failure(_ certificate: String, _ key: String) -> String {
            do {
                _ = try TLSContext.server(certificateFile: certificate, keyFile: key)
                return "no error"
            } catch { return error.description }
        }
        let mismatched = failure(one.certificateFile, two.keyFile)
        #expect(mismatched.contains(two.keyFile) && mismatched.contains("match"), "\(mismatched)")
        let garbage = folder.appendingPathComponent("garbage.pem").path
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: garbage))
        let notPEM = failure(garbage, one.keyFile)
        #expect(notPEM.contains(garbage), "\(notPEM)")
        let missing = failure(folder.appendingPathComponent("missing.pem").path, one.keyFile)
        #expect(missing.contains("missing.pem"), "\(missing)")
        let missingKey = failure(one.certificateFile, folder.appendingPathComponent("nokey.pem").path)
        #expect(missingKey.contains("nokey.pem"), "\(missingKey)")
        for text in [mismatched, notPEM, missing, missingKey] { #expect(!text.contains("\n")) }
    }

    @Test func sessionsHandshakeInMemoryWithVerificationAndCarryDataBothWays() throws {
        let folder = temporaryFolder("pair")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try SelfSignedCertificate.ensure(in: folder, names: ["localhost", "127.0.0.1"])
        let serverContext = try TLSContext.server(certificateFile: files.certificateFile, keyFile: files.keyFile)
        let clientContext = try TLSContext.client(trustedCertificateFiles: [files.certificateFile], systemTrust: false)

        for name in ["localhost", "127.0.0.1"] {
            let server = try TLSSession(context: serverContext)
            let client = try TLSSession(context: clientContext, serverName: name)
            exchange(client, server) { _ = $0.handshake() }
            #expect(client.isHandshakeComplete && server.isHandshakeComplete)
            #expect(server.negotiatedProtocol == "http/1.1")
            #expect(client.protocolVersion == "TLSv1.3")

            _ = Array("GET / HTTP/1.1\r\n\r\n".utf8).withUnsafeBytes { client.write($0) }
            var received = ""
            exchange(client, server) { session in if session === server { received += readAll(server) } }
            #expect(received == "GET / HTTP/1.1\r\n\r\n")
            _ = Array("HTTP/1.1 200 OK\r\n\r\n".utf8).withUnsafeBytes { server.write($0) }
            var answer = ""
            exchange(client, server) { session in if session === client { answer += readAll(client) } }
            #expect(answer == "HTTP/1.1 200 OK\r\n\r\n")
        }
    }

    /// The ciphertext a session receives is lent for one `receive` call: what OpenSSL has not
    /// taken by its end must be copied, never read later in place. Records cut at every byte,
    /// in odd pieces and joined several at once all give the plaintext back whole (under ASan,
    /// a read of a lent piece after its call is reported).
    @Test func ciphertextInPiecesOfAnySizeArrivesWhole() throws {
        let folder = temporaryFolder("pieces")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try SelfSignedCertificate.ensure(in: folder, names: ["localhost"])
        let serverContext = try TLSContext.server(certificateFile: files.certificateFile, keyFile: files.keyFile)
        let clientContext = try TLSContext.client(trustedCertificateFiles: [files.certificateFile], systemTrust: false)
        let server = try TLSSession(context: serverContext)
        let client = try TLSSession(context: clientContext, serverName: "localhost")
        exchange(client, server) { _ = $0.handshake() }
        try #require(client.isHandshakeComplete && server.isHandshakeComplete)
        _ = readAll(server)   // session tickets and the like, before the data

        let message = (0..<5000).map { UInt8(32 + $0 % 95) }   // printable: `readAll` answers text
        for pieceSize in [1, 7, 1000, 100_000] {
            for _ in 0..<3 { _ = message.withUnsafeBytes { client.write($0) } }   // three records
            var ciphertext: [UInt8] = []
            client.sendOutput { bytes in
                ciphertext += bytes
                return bytes.count
            }
            var received: [UInt8] = []
            var offset = 0
            while offset < ciphertext.count {
                let end = min(ciphertext.count, offset + pieceSize)
                ciphertext[offset..<end].withUnsafeBytes { piece in
                    // 100-byte reads: part of a joined piece is left over for the next call.
                    server.receive(piece) { received += Array(readAll(server).utf8) }
                }
                offset = end
            }
            received += Array(readAll(server).utf8)
            #expect(received == message + message + message, "pieces of \(pieceSize) bytes")
        }
    }

    @Test func clientRefusesAnUntrustedOrMisnamedCertificate() throws {
        let folder = temporaryFolder("verify")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try SelfSignedCertificate.ensure(in: folder, names: ["localhost"])
        let serverContext = try TLSContext.server(certificateFile: files.certificateFile, keyFile: files.keyFile)
        let trusting = try TLSContext.client(trustedCertificateFiles: [files.certificateFile], systemTrust: false)
        let systemOnly = try TLSContext.client()

        for (context, name) in [(systemOnly, "localhost"), (trusting, "other.example"), (trusting, "10.9.9.9")] {
            let server = try TLSSession(context: serverContext)
            let client = try TLSSession(context: context, serverName: name)
            var outcome = TLSSession.Outcome.wantInput
            exchange(client, server) { session in
                let result = session.handshake()
                if session === client, case .failed = result { outcome = result }
            }
            guard case .failed(let reason) = outcome else {
                Issue.record("\(name): the handshake should fail, got \(outcome)")
                continue
            }
            #expect(reason.contains("certificate verify failed"), "\(reason)")
            #expect(!client.isHandshakeComplete)
        }
    }

    @Test func garbageInsteadOfAClientHelloFailsCleanly() throws {
        let folder = temporaryFolder("garbage")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try SelfSignedCertificate.ensure(in: folder, names: ["localhost"])
        let server = try TLSSession(context: TLSContext.server(certificateFile: files.certificateFile, keyFile: files.keyFile))
        let garbage: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x05, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let outcome = garbage.withUnsafeBytes { bytes in server.receive(bytes) { server.handshake() } }
        guard case .failed = outcome else { Issue.record("expected a failure, got \(outcome)"); return }
    }
}

/// TLS 1.2 offers AEAD suites only: a client that speaks nothing but CBC (or static RSA) gets
/// no handshake; AES-GCM and ChaCha20-Poly1305 clients do.
@Suite struct TLSCipherSuiteTests {
    static func handshake(clientCiphers: String) throws -> (ok: Bool, version: String, cipher: String) {
        let folder = temporaryFolder("ciphers")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try SelfSignedCertificate.ensure(in: folder, names: ["localhost"])
        let serverContext = try TLSContext.server(certificateFile: files.certificateFile, keyFile: files.keyFile)
        let clientContext = try TLSContext.client(trustedCertificateFiles: [files.certificateFile], systemTrust: false)
        #expect(om_ssl_ctx_set_max_proto_version(clientContext.handle, om_tls1_2_version) == 1)
        #expect(SSL_CTX_set_cipher_list(clientContext.handle, clientCiphers) == 1)
        let server = try TLSSession(context: serverContext)
        let client = try TLSSession(context: clientContext, serverName: "localhost")
        exchange(client, server) { _ = $0.handshake() }
        return (client.isHandshakeComplete && server.isHandshakeComplete, client.protocolVersion, client.cipherName)
    }

    @Test(arguments: ["ECDHE-ECDSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA384", "ECDHE-ECDSA-AES128-SHA256",
                      "AES128-SHA:AES256-SHA:AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-SHA:ECDHE-RSA-AES128-SHA"])
    func cbcAndStaticRSASuitesAreRefused(ciphers: String) throws {
        #expect(try Self.handshake(clientCiphers: ciphers).ok == false, "\(ciphers) was accepted")
    }

    @Test(arguments: ["ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305"])
    func aeadSuitesAreAccepted(ciphers: String) throws {
        let result = try Self.handshake(clientCiphers: ciphers)
        #expect(result.ok && result.version == "TLSv1.2" && result.cipher == ciphers, "\(result)")
    }
}
