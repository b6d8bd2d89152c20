import Foundation
import Testing
@testable import OpenMarketSandbox
import TestSupport

/// The `openmarket-sandbox` executable as a user meets it.
@Suite(.awaitsTeardown) struct ExecutableTests {
    @Test func printsTheDemoVendorOnlyOnTheFirstStart() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try await SandboxProcess.start(["--data", folder.url.path])
        #expect(first.startupOutput.contains("listening on http://127.0.0.1:\(first.port)"))
        #expect(first.startupOutput.contains("identifier: ") && first.startupOutput.contains("password: "))
        let health = try await RawHTTPClient.request(port: first.port, method: "GET", path: "/healthChecker")
        #expect(health.text == "\"OK\"")
        #expect(try await first.stop() == 0)

        let second = try await SandboxProcess.start(["--data", folder.url.path, "--dialect", "v2b"])
        #expect(!second.startupOutput.contains("password") && second.startupOutput.contains("(v2b)"))
        #expect(try await second.stop() == 0)
    }

    @Test func helpAndBadFlags() async throws {
        let help = try await SandboxProcess.run(["--help"])
        #expect(help.status == 0 && help.output.contains("--vendor NAME:IDENTIFIER:SECRET"))
        for arguments in [["--port", "eighty"], ["--dialect", "v9"], ["--frobnicate"]] {
            let bad = try await SandboxProcess.run(arguments)
            #expect(bad.status != 0)
            #expect(bad.error.hasPrefix("openmarket-sandbox: ") && bad.error.filter { $0 == "\n" }.count == 1, "\(bad.error)")
            #expect(bad.output.isEmpty)
        }
    }
}
