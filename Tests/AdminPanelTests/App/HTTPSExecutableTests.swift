import Foundation
import Testing
import TLS
import TestSupport
@testable import AdminPanel
#if canImport(Glibc)
import Glibc
#endif

/// `openmarket-admin` over HTTPS, as a person sharing it on a LAN meets it: the printed
/// fingerprint is the one clients see, the certificate survives restarts, pages carry HSTS and
/// Secure cookies, and bad certificate files stop the start with one line.
@Suite(.serialized) struct HTTPSExecutableTests {
    typealias Exe = ExecutableTests

    static let fingerprintLine = #"TLS certificate SHA-256: ([0-9A-F]{2}:){31}[0-9A-F]{2}\n"#

    /// Starts the panel with `--tls on` on loopback and reads its start-up lines up to its https
    /// URL and its certificate's fingerprint.
    static func start(data: URL) throws -> (panel: Exe.Started, fingerprint: String) {
        let panel = try Exe.start(data: data, extra: ["--tls", "on"]) {
            $0.contains("Admin panel:  https://") && $0.range(of: fingerprintLine, options: .regularExpression) != nil
        }
        let line = panel.lines[panel.lines.range(of: fingerprintLine, options: .regularExpression)!]
        return (panel, String(line.dropFirst("TLS certificate SHA-256: ".count).dropLast()))
    }

    static func shell(_ command: String) async throws -> String {
        try await offPool { try ChildProcess.run("/bin/sh", ["-c", command], errorToOutput: true).output }
    }

    @Test func fingerprintIsPrintedMatchesTheWireAndSurvivesRestarts() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("admin-https-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let (first, fingerprint) = try await offPool { try Self.start(data: data) }
        #expect(first.lines.contains("Made a self-signed TLS certificate"))
        let certificate = data.appendingPathComponent("tls/cert.pem").path
        let key = data.appendingPathComponent("tls/key.pem").path
        let mode = try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let seen = try await Self.shell("openssl s_client -connect 127.0.0.1:\(first.port) -servername localhost </dev/null 2>/dev/null"
                                        + " | openssl x509 -noout -fingerprint -sha256")
        #expect(seen.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("=" + fingerprint), "\(seen)")

        // A verified request (the certificate trusted explicitly): HSTS, Secure cookies.
        let page = try await Self.shell("curl -sS -i --cacert \(certificate) https://localhost:\(first.port)/products?view=grid")
        #expect(page.hasPrefix("HTTP/1.1 200"), "\(page.prefix(300))")
        #expect(page.contains("Strict-Transport-Security: max-age=31536000"))
        let cookies = page.split(separator: "\r\n").filter { $0.lowercased().hasPrefix("set-cookie:") }
        #expect(!cookies.isEmpty)
        #expect(cookies.allSatisfy { $0.hasSuffix("; Secure") || $0.contains("; Secure;") }, "\(cookies)")
        // Static files, answered on the event loop without the middlewares, carry HSTS too: the
        // same answer as through the middlewares (`%61` spells `a` and takes the ordinary route).
        let fast = try await Self.shell("curl -sS -i --cacert \(certificate) https://localhost:\(first.port)/static/app.css")
        let ordinary = try await Self.shell("curl -sS -i --cacert \(certificate) https://localhost:\(first.port)/static/%61pp.css")
        let withoutDate = { (answer: String) in answer.split(separator: "\r\n").filter { !$0.hasPrefix("Date:") } }
        #expect(fast.hasPrefix("HTTP/1.1 200"), "\(fast.prefix(300))")
        #expect(fast.contains("Strict-Transport-Security: max-age=31536000"))
        #expect(withoutDate(fast) == withoutDate(ordinary))
        // Plain HTTP on the same port: a 400 naming the https:// address.
        let plain = try await Self.shell("curl -sS -i http://127.0.0.1:\(first.port)/products")
        #expect(plain.hasPrefix("HTTP/1.1 400"))
        #expect(plain.contains("https://127.0.0.1:\(first.port)/"))
        // Only allowed names are linked: a foreign Host is not echoed.
        let foreign = try await Self.shell("curl -sS -i -H 'Host: evil.example:\(first.port)' http://127.0.0.1:\(first.port)/products")
        #expect(foreign.hasPrefix("HTTP/1.1 400"))
        #expect(!foreign.contains("evil.example"), "\(foreign)")
        #expect(try await Exe.stop(first.child) == 0)

        let (second, fingerprintAgain) = try await offPool { try Self.start(data: data) }
        #expect(!second.lines.contains("Made a self-signed"))
        #expect(fingerprintAgain == fingerprint)
        #expect(try await Exe.stop(second.child) == 0)
    }

    @Test func looseKeyPermissionsAndMismatchedFilesStopTheStartWithOneLine() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("admin-https-bad-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let one = try SelfSignedCertificate.ensure(in: folder.appendingPathComponent("one"), names: ["localhost"])
        let two = try SelfSignedCertificate.ensure(in: folder.appendingPathComponent("two"), names: ["localhost"])
        let base = ["--port", "0", "--sandbox-port", "0", "--data", folder.appendingPathComponent("data").path, "--tls", "on"]

        let mismatched = try await offPool { try Exe.run(base + ["--tls-cert", one.certificateFile, "--tls-key", two.keyFile]) }
        #expect(mismatched.status == 1)
        #expect(mismatched.error.hasPrefix("openmarket-admin: ") && mismatched.error.filter { $0 == "\n" }.count == 1)
        #expect(mismatched.error.contains(two.keyFile), "\(mismatched.error)")

        let missing = try await offPool { try Exe.run(base + ["--tls-cert", "/no/such/cert.pem", "--tls-key", one.keyFile]) }
        #expect(missing.status == 1 && missing.error.contains("/no/such/cert.pem"), "\(missing.error)")

        chmod(one.keyFile, 0o640)
        let loose = try await offPool { try Exe.run(base + ["--tls-cert", one.certificateFile, "--tls-key", one.keyFile]) }
        #expect(loose.status == 1)
        #expect(loose.error.contains(one.keyFile) && loose.error.contains("chmod 600"), "\(loose.error)")
        #expect(loose.error.filter { $0 == "\n" }.count == 1)

        // The self-signed key in DATA/tls/ is held to the same rule.
        let data = folder.appendingPathComponent("data2")
        let made = try SelfSignedCertificate.ensure(in: data.appendingPathComponent("tls"), names: ["localhost", "127.0.0.1", "::1"])
        chmod(made.keyFile, 0o644)
        let looseOwn = try await offPool {
            try Exe.run(["--port", "0", "--sandbox-port", "0", "--data", data.path, "--tls", "on"])
        }
        #expect(looseOwn.status == 1 && looseOwn.error.contains("chmod 600"), "\(looseOwn.error)")
    }

    @Test func tlsFlagsParse() throws {
        #expect(try LaunchOptions.parse([], environment: [:]).servesHTTPS == false)
        #expect(try LaunchOptions.parse(["--host", "0.0.0.0"], environment: [:]).servesHTTPS)
        #expect(try LaunchOptions.parse(["--host", "0.0.0.0", "--tls", "off"], environment: [:]).servesHTTPS == false)
        #expect(try LaunchOptions.parse([], environment: ["OPENMARKET_TLS": "on"]).servesHTTPS)
        let real = try LaunchOptions.parse(["--tls-cert", "c.pem", "--tls-key", "k.pem"], environment: [:])
        #expect(real.tlsCertificateFile == "c.pem" && real.tlsKeyFile == "k.pem")
        #expect(throws: LaunchOptions.Problem.self) { try LaunchOptions.parse(["--tls", "maybe"], environment: [:]) }
        #expect(throws: LaunchOptions.Problem.self) { try LaunchOptions.parse(["--tls-cert", "c.pem"], environment: [:]) }
    }

    @Test func secureIsAddedToEveryCookieOnce() {
        #expect(HTTPSHeaders.secured("a=1; Path=/; HttpOnly") == "a=1; Path=/; HttpOnly; Secure")
        #expect(HTTPSHeaders.secured("a=1; Path=/; Secure; SameSite=None") == "a=1; Path=/; Secure; SameSite=None")
        #expect(HTTPSHeaders.secured("secure=1; Path=/") == "secure=1; Path=/; Secure")
    }
}
