import Foundation
import TLS

/// A self-signed certificate and its key as PEM files in a fresh temporary folder, for HTTPS
/// upstreams in tests: for the given names, valid for a day or already expired.
public struct SelfSignedTestCertificate: Sendable {
    public let certificateFile: String
    public let keyFile: String

    public static func make(names: [String] = ["127.0.0.1", "localhost"], expired: Bool = false) throws -> SelfSignedTestCertificate {
        // Expired: valid from an hour ago until a minute ago.
        let pair = try SelfSignedCertificate.generate(names: names, validSeconds: expired ? -60 : 86_400)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("test-certificate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        guard FileManager.default.createFile(atPath: certificate, contents: pair.certificate),
              FileManager.default.createFile(atPath: key, contents: pair.key, attributes: [.posixPermissions: 0o600]) else {
            throw TLSError("cannot write the test certificate in \(folder.path)")
        }
        return SelfSignedTestCertificate(certificateFile: certificate, keyFile: key)
    }

    /// A server context presenting this certificate.
    public func serverContext() throws -> TLSContext {
        try TLSContext.server(certificateFile: certificateFile, keyFile: keyFile)
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: certificateFile).deletingLastPathComponent().path)
    }
}
