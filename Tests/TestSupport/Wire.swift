import Foundation
import TLS
#if canImport(Glibc)
import Glibc
#endif

/// How test clients and servers talk: plain HTTP, or HTTPS with the run's test certificate.
public enum Wire: Sendable {
    case plain, tls
    @TaskLocal public static var current = Wire.plain
}

/// One self-signed certificate for the whole test run (for "localhost" and 127.0.0.1).
public enum TestCertificate {
    public static let files: SelfSignedCertificate.Files = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmarket-tests-tls-\(getpid())")
        return try! SelfSignedCertificate.ensure(in: folder, names: ["localhost", "127.0.0.1"])
    }()
    public static let serverContext = try! TLSContext.server(certificateFile: files.certificateFile, keyFile: files.keyFile)
    public static let clientContext = try! TLSContext.client(trustedCertificateFiles: [files.certificateFile], systemTrust: false)
}
