import Foundation
import Testing
@testable import AdminPanel

@Suite struct LaunchOptionsTests {
    @Test func defaultsWithoutFlags() throws {
        let options = try LaunchOptions.parse([], environment: [:])
        #expect(options.host == "127.0.0.1")
        #expect(options.port == 8080)
        #expect(options.sandboxPort == 8081)
        #expect(options.api == nil)
        #expect(options.dataDirectory == "./.openmarket")
    }

    @Test func flagsInBothSpellings() throws {
        let options = try LaunchOptions.parse(
            ["--port", "9000", "--api=http://api.example:8000", "--dialect", "v2b", "--identifier", "id",
             "--secret=s3", "--vendor-id", "7", "--timeout", "2.5", "--templates", "/t", "--public", "/p"],
            environment: [:])
        #expect(options.port == 9000)
        #expect(options.api?.absoluteString == "http://api.example:8000")
        #expect(options.dialect == .v2b)
        #expect(options.vendorID == 7)
        #expect(options.timeout == 2.5)
        #expect(options.templatesDirectory == "/t")
        #expect(options.publicDirectory == "/p")
    }

    /// v1 has no vendor: a remote v1 API needs no identifier or secret.
    @Test func v1NeedsNoVendorCredentials() throws {
        let options = try LaunchOptions.parse(["--api", "http://api.example:8000", "--dialect", "v1"], environment: [:])
        #expect(options.dialect == .v1 && options.identifier == nil && options.secret == nil)
    }

    @Test func environmentIsTheFallback() throws {
        let options = try LaunchOptions.parse(["--port", "9001"],
                                              environment: ["OPENMARKET_PORT": "9999", "OPENMARKET_SANDBOX_PORT": "9002",
                                                            "OPENMARKET_DATA": "/tmp/x"])
        #expect(options.port == 9001)
        #expect(options.sandboxPort == 9002)
        #expect(options.dataDirectory == "/tmp/x")
    }

    @Test(arguments: [
        (["--bogus"], "unknown option --bogus"),
        (["--port", "99999"], "--port must be a port number"),
        (["--port"], "--port needs a value"),
        (["--dialect", "v3"], "--dialect must be v1, v2a or v2b"),
        (["--api", "ftp://x"], "--api must be an http"),
        (["--api", "http://x"], "--api needs --identifier and --secret"),
        (["stray"], "unexpected argument"),
        (["--media-origin", "https://x.example/path"], "--media-origin takes origins"),
        (["--time-zone", "Mars/Olympus"], "--time-zone must be a zone name"),
        (["--public-url", "ftp://x"], "--public-url must be an http"),
        (["--public-url", "https://"], "--public-url must be an http"),
        (["--trash-days", "0"], "--trash-days must be a number"),
        (["--trash-days", "lots"], "--trash-days must be a number"),
    ])
    func badFlagsAreExplainedInOneLine(arguments: [String], reason: String) {
        do {
            _ = try LaunchOptions.parse(arguments, environment: [:])
            Issue.record("expected a problem for \(arguments)")
        } catch {
            #expect(error.description.contains(reason))
            #expect(!error.description.contains("\n"))
        }
    }

    /// `--api-ca` (or `OPENMARKET_API_CA`) names a readable file; a missing one is a one-line problem.
    @Test func apiCAIsAReadableFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("api-ca-\(UUID().uuidString).pem")
        try Data("not checked here".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try LaunchOptions.parse(["--api-ca", file.path], environment: [:]).apiCertificateFile == file.path)
        #expect(try LaunchOptions.parse([], environment: ["OPENMARKET_API_CA": file.path]).apiCertificateFile == file.path)
        #expect(try LaunchOptions.parse([], environment: [:]).apiCertificateFile == nil)
        #expect(LaunchOptions.usage.contains("--api-ca FILE") && LaunchOptions.usage.contains("OPENMARKET_API_CA"))
        #expect(throws: LaunchOptions.Problem(description: "--api-ca: cannot read the certificate file '/no/such/ca.pem'")) {
            try LaunchOptions.parse(["--api-ca", "/no/such/ca.pem"], environment: [:])
        }
    }

    @Test func mediaOriginsAreAList() throws {
        let options = try LaunchOptions.parse(["--media-origin", "https://a.example, http://b.example:9000"], environment: [:])
        #expect(options.mediaOrigins.map(\.absoluteString) == ["https://a.example", "http://b.example:9000"])
    }

    @Test func helpWins() throws {
        #expect(try LaunchOptions.parse(["--help", "--bogus-ignored-after"], environment: [:]).showHelp)
        #expect(LaunchOptions.usage.contains("--sandbox-port"))
    }

    @Test func loopbackDetection() {
        #expect(LaunchOptions.isLoopback("127.0.0.1"))
        #expect(LaunchOptions.isLoopback("localhost"))
        #expect(LaunchOptions.isLoopback("::1"))
        #expect(!LaunchOptions.isLoopback("0.0.0.0"))
        #expect(!LaunchOptions.isLoopback("192.168.1.5"))
    }

    @Test func checkoutIsFoundFromAFolderInsideIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-\(UUID().uuidString)")
        let deep = root.appendingPathComponent(".build/debug")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Templates"), withIntermediateDirectories: true)
        try Data().write(to: root.appendingPathComponent("Package.swift"))
        defer { try? FileManager.default.removeItem(at: root) }
        let found = CheckoutLocator.checkoutRoot(executablePath: deep.appendingPathComponent("openmarket-admin").path,
                                                 workingDirectory: "/")
        #expect(found?.resolvingSymlinksInPath().path == root.resolvingSymlinksInPath().path)
        #expect(CheckoutLocator.checkoutRoot(executablePath: "/usr/bin/true", workingDirectory: "/") == nil)
    }
}

@Suite struct MaxConnectionsOptionTests {
    @Test func maxConnectionsFromFlagOrEnvironment() throws {
        #expect(try LaunchOptions.parse([], environment: [:]).maxConnections == 10_000)
        #expect(try LaunchOptions.parse(["--max-connections", "500"], environment: [:]).maxConnections == 500)
        #expect(try LaunchOptions.parse([], environment: ["OPENMARKET_MAX_CONNECTIONS": "42"]).maxConnections == 42)
        for bad in ["0", "-3", "many", "99999999"] {
            #expect(throws: (any Error).self) { try LaunchOptions.parse(["--max-connections", bad], environment: [:]) }
        }
    }
}

@Suite struct RoundThreeOptionTests {
    @Test func timeZonePublicURLAndTrashDaysFromFlagOrEnvironment() throws {
        let defaults = try LaunchOptions.parse([], environment: [:])
        #expect(defaults.timeZone == TimeZone.current && defaults.publicURL == nil && defaults.trashDays == 30)
        let given = try LaunchOptions.parse(["--time-zone", "Asia/Seoul", "--public-url", "https://192.168.0.10:8080",
                                             "--trash-days", "7"], environment: [:])
        #expect(given.timeZone.identifier == "Asia/Seoul")
        #expect(given.publicURL?.absoluteString == "https://192.168.0.10:8080")
        #expect(given.trashDays == 7)
        let fromEnvironment = try LaunchOptions.parse([], environment: ["OPENMARKET_TIME_ZONE": "Europe/Berlin", "OPENMARKET_TRASH_DAYS": "90"])
        #expect(fromEnvironment.timeZone.identifier == "Europe/Berlin" && fromEnvironment.trashDays == 90)
    }
}
