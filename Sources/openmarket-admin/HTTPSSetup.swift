import AdminPanel
import Foundation
import TLS

/// The panel's HTTPS certificate, decided at start: none on loopback (unless `--tls on`), the
/// operator's `--tls-cert`/`--tls-key`, or the self-signed one kept in `DATA/tls/`. Any problem
/// ends the start with one line naming the file.
func httpsContext(for options: LaunchOptions) -> TLSContext? {
    guard options.servesHTTPS else { return nil }
    do {
        if let certificate = options.tlsCertificateFile, let key = options.tlsKeyFile {
            return try TLSContext.server(certificateFile: certificate, keyFile: key)
        }
        let folder = URL(fileURLWithPath: options.dataDirectory).appendingPathComponent("tls", isDirectory: true)
        // Every name the panel answers to (docs/lan-console.md, "The names it answers to"), so a browser that
        // trusts the certificate finds it valid under each of them.
        let allowed = try HostAllowList(bindHost: options.host, allowedHosts: options.allowedHosts)
        let names = allowed.ownNames + allowed.extraEntries.map(\.name)
        let files = try SelfSignedCertificate.ensure(in: folder, names: names)
        if files.created { say("Made a self-signed TLS certificate in \(folder.path)") }
        return try TLSContext.server(certificateFile: files.certificateFile, keyFile: files.keyFile)
    } catch let error as TLSError {
        fail(error.description, status: 1)
    } catch {
        fail("\(error)", status: 1)
    }
}
