import Foundation
import OpenMarketCore
import Testing
@testable import OpenMarketSandbox
import TestSupport

/// Start-up: the demo vendor, configured vendors, vendors.json, sample data, the command line.
@Suite(.awaitsTeardown) struct SandboxSetupTests {
    @Test func demoVendorIsCreatedOnceWithRandomCredentials() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try Sandbox(configuration: SandboxConfiguration(dataDirectory: folder.url))
        let demo = first.demoVendor
        #expect(demo.created && demo.name == "demo")
        #expect(UUID(uuidString: demo.identifier) != nil && demo.secret.count >= 16)
        let again = try Sandbox(configuration: SandboxConfiguration(dataDirectory: folder.url)).demoVendor
        #expect(!again.created && again.identifier == demo.identifier && again.secret == demo.secret && again.id == demo.id)

        let elsewhere = try TemporaryFolder()
        defer { elsewhere.remove() }
        let other = try Sandbox(configuration: SandboxConfiguration(dataDirectory: elsewhere.url)).demoVendor
        #expect(other.identifier != demo.identifier && other.secret != demo.secret)
    }

    @Test func vendorsFromConfigurationAndFileAreAddedOrUpdated() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = #"[{"name":"file shop","identifier":"file-id","secret":"file-secret"}]"#
        try Data(file.utf8).write(to: folder.url.appendingPathComponent("vendors.json"))
        var configuration = SandboxConfiguration(dataDirectory: folder.url)
        configuration.port = 0
        configuration.logRequests = false
        configuration.vendors = [VendorSeed(name: "kim", identifier: "kim-id", secret: "old")]
        _ = try Sandbox(configuration: configuration)
        configuration.vendors = [VendorSeed(name: "kim renamed", identifier: "kim-id", secret: "new")]
        let sandbox = try Sandbox(configuration: configuration)
        let port = try sandbox.start()

        func register(identifier: String, secret: String) async throws -> RawResponse {
            let multipart = Multipart.product(dialect: .v2a, secret: secret, images: [SampleProducts.image(index: 0, imageIndex: 0)])
            return try await RawHTTPClient.request(port: port, method: "POST", path: "/api/products",
                                          headers: [("Content-Type", multipart.contentType), ("identifier", identifier)],
                                          body: multipart.body)
        }
        #expect(try await register(identifier: "kim-id", secret: "old").status == 401)
        let kim = try await register(identifier: "kim-id", secret: "new")
        #expect(kim.status == 200 && (kim.json?["vendors"] as? [String: Any])?["name"] as? String == "kim renamed")
        let fromFile = try await register(identifier: "file-id", secret: "file-secret")
        #expect((fromFile.json?["vendors"] as? [String: Any])?["name"] as? String == "file shop")
        await sandbox.shutdown()
    }

    @Test func configuredVendorsReplaceTheDemoVendor() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var configuration = SandboxConfiguration(dataDirectory: folder.url)
        configuration.vendors = [VendorSeed(name: "kim", identifier: "kim-id", secret: "kim-secret"),
                                 VendorSeed(name: "lee", identifier: "lee-id", secret: "lee-secret")]
        configuration.seed = 3
        let sandbox = try Sandbox(configuration: configuration)
        let acting = sandbox.demoVendor
        #expect(acting.name == "kim" && acting.identifier == "kim-id" && !acting.created)
        #expect(try Sandbox(configuration: SandboxConfiguration(dataDirectory: folder.url)).demoVendor.name == "demo")
    }

    @Test func badVendorsFileIsAClearStartupError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data("{not json".utf8).write(to: folder.url.appendingPathComponent("vendors.json"))
        #expect(throws: SandboxStartupError.self) { _ = try Sandbox(configuration: SandboxConfiguration(dataDirectory: folder.url)) }
    }

    @Test func seedFillsOnlyAnEmptyStore() async throws {
        try await withSandbox(seed: 12) { harness in
            #expect(try await harness.productCount() == 12)
            let page = try await harness.client().listProducts(page: 1, itemsPerPage: 20)
            #expect(page.pages.first?.name.hasSuffix(" 1") == true)   // sample 1 is the newest
            #expect(Set(page.pages.map(\.currency)) == [.KRW, .USD])
            #expect(page.pages.contains { $0.stock == 0 } && page.pages.contains { $0.discountedPrice > 0 })
            let detail = try await harness.client().product(id: page.pages[0].id)
            let image = try await harness.get(URL(string: detail.images[0].url)!.path)
            #expect(image.status == 200 && ImageFormat.detect(image.body) == .png)

            var configuration = SandboxConfiguration(dataDirectory: harness.folder.url)
            configuration.seed = 5
            _ = try Sandbox(configuration: configuration)   // not empty: nothing added
            #expect(try await harness.productCount() == 12)
        }
    }

    @Test func commandLineFlags() throws {
        let here = URL(fileURLWithPath: "/tmp/here")
        guard case .run(let defaults) = try SandboxCommandLine.parse([], currentDirectory: here) else { Issue.record(); return }
        #expect(defaults.host == "127.0.0.1" && defaults.port == 8081 && defaults.dialect == .v2a && !defaults.strict)
        #expect(defaults.dataDirectory.path == "/tmp/here/.openmarket")

        let arguments = ["--host", "0.0.0.0", "--port", "0", "--data", "store", "--dialect", "v2b", "--strict",
                         "--vendor", "kim:kim-id:pa:ss", "--vendor", "lee:lee-id:pw", "--seed", "30"]
        guard case .run(let parsed) = try SandboxCommandLine.parse(arguments, currentDirectory: here) else { Issue.record(); return }
        #expect(parsed.host == "0.0.0.0" && parsed.port == 0 && parsed.dialect == .v2b && parsed.strict && parsed.seed == 30)
        #expect(parsed.dataDirectory.path == "/tmp/here/store")
        #expect(parsed.vendors == [VendorSeed(name: "kim", identifier: "kim-id", secret: "pa:ss"),
                                   VendorSeed(name: "lee", identifier: "lee-id", secret: "pw")])

        guard case .help = try SandboxCommandLine.parse(["--port", "1", "--help"]) else { Issue.record(); return }
        for (bad, reason) in [(["--port", "http"], "--port must be a number"), (["--dialect", "v3"], "--dialect must be v1, v2a or v2b"),
                              (["--vendor", "kim:id"], "--vendor must be NAME:IDENTIFIER:SECRET"), (["--bogus"], "unknown option"),
                              (["--data"], "--data needs a value"), (["--seed", "-1"], "--seed must be")] {
            do {
                _ = try SandboxCommandLine.parse(bad)
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(error.description.contains(reason) && !error.description.contains("\n"))
            }
        }
        // A bad --vendor value holds a secret: the reason does not repeat it.
        do { _ = try SandboxCommandLine.parse(["--vendor", "only-secret-here"]) } catch {
            #expect(!error.description.contains("only-secret-here"))
        }
    }
}
