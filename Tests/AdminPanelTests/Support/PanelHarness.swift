import Foundation
import TestSupport
import HTTPServer
import OpenMarketCore
import OpenMarketSandbox
@testable import AdminPanel

/// A real sandbox and a real panel with a browser-like client, on one of two tiers:
/// - in-process (the default): the browser calls the panel's router and the panel's upstream
///   calls the sandbox's router, with no listener and no socket;
/// - live (`Options.live`): both listen on ephemeral loopback ports and talk HTTP over TCP, for
///   what only the wire shows (streams, TLS, stopping, bodies refused unread, broken servers).
/// Each test gets its own data folder, so tests run in parallel without sharing state.
final class PanelHarness: @unchecked Sendable {
    let sandbox: Sandbox?
    let panel: any RunningPanel
    let browser: TestBrowser
    let clock: ManualClock
    let dataDirectory: URL
    let client: ClientConfiguration
    let demoSecret: String
    let demoIdentifier: String
    /// What the panel was started with (to start another one on the same DATA, as after a restart).
    var panelConfiguration: PanelConfiguration!

    /// The repository's root: this file is Tests/AdminPanelTests/Support/PanelHarness.swift.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    struct Options {
        /// Listeners and sockets for the panel and the sandbox (see the type's comment).
        var live = false
        var seed = 0
        var dialect = Dialect.v2a
        var vendorID: VendorChoice = .demo
        /// Sign-in with people and passwords (off: everyone is `local`).
        var signIn = false
        /// Talk to this API instead of the sandbox (stubs, a closed port).
        var api: URL?
        /// Generous: on a busy machine the sandbox's fsync'd writes can take seconds.
        var timeout: TimeInterval = 60
        var uploadLimit: Int?
        /// Another vendor in the sandbox, for products this panel's vendor does not own.
        var otherVendor: VendorSeed?
        var mediaOrigins: [URL] = []
        /// The panel's DATA (default: the sandbox's folder), e.g. to restart on the same state.
        var dataDirectory: URL?
        /// Real (interactive) Argon2id instead of the tests' minimum strength.
        var realPasswordHashes = false
        /// Sees every request that reaches the sandbox.
        var sandboxObserver: (@Sendable (AccessLogEntry) -> Void)?
        /// Puts something in front of the sandbox (an HTTPS listener); the panel uses the URL it gives.
        var frontOfSandbox: ((URL) throws -> URL)?
        /// `--api-ca`.
        var apiCertificateFile: String?

        /// What only the live tier offers: servers besides the sandbox, a front, a certificate,
        /// the sandbox's access log.
        var needsTheWire: Bool {
            api != nil || frontOfSandbox != nil || apiCertificateFile != nil || sandboxObserver != nil || !mediaOrigins.isEmpty
        }
    }

    enum VendorChoice { case demo, unknown, other(Int) }

    static let seller = VendorSeed(name: "seller", identifier: "5b1f6c1e-0000-4000-8000-000000000001", secret: "seller-secret-123")

    static func start(_ options: Options = Options()) async throws -> PanelHarness {
        if !options.live && options.needsTheWire {
            throw TestClientFailure(description: "another API, a front, --api-ca, a sandbox observer or media origins need Options.live")
        }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("panel-test-\(UUID().uuidString)")
        var sandboxConfiguration = SandboxConfiguration(dataDirectory: data)
        sandboxConfiguration.port = options.live ? 0 : SandboxRouterTransport.port
        sandboxConfiguration.dialect = options.dialect
        sandboxConfiguration.seed = options.seed
        sandboxConfiguration.logRequests = false
        sandboxConfiguration.requestObserver = options.sandboxObserver
        // The first configured vendor is the one the panel acts for; the other one owns foreign products.
        if let other = options.otherVendor { sandboxConfiguration.vendors = [Self.seller, other] }
        let sandbox = try Sandbox(configuration: sandboxConfiguration)
        let upstream: any HTTPTransport
        if options.live {
            _ = try sandbox.start()
            upstream = PooledTransport(maxConnectionsPerHost: 8)
        } else {
            // The sandbox never listens: its address keeps the configured port.
            upstream = SandboxRouterTransport(router: sandbox.router, origin: sandbox.baseURL)
        }
        let demo = sandbox.demoVendor
        let client = ClientConfiguration(baseURL: try options.api ?? options.frontOfSandbox?(sandbox.baseURL) ?? sandbox.baseURL, dialect: options.dialect,
                                         identifier: demo.identifier, secret: demo.secret, timeout: options.timeout)
        let clock = ManualClock()
        var configuration = PanelConfiguration(host: "127.0.0.1", port: 0, api: client, vendorID: nil,
                                               publicDirectory: repository.appendingPathComponent("Public"),
                                               templatesDirectory: repository.appendingPathComponent("Templates"),
                                               signIn: options.signIn)
        switch options.vendorID {
        case .demo: configuration.vendorID = demo.id
        case .unknown: configuration.vendorID = nil
        case .other(let id): configuration.vendorID = id
        }
        configuration.accessLog = nil
        configuration.now = clock.function
        configuration.eventLoopCount = 1
        if let limit = options.uploadLimit { configuration.uploadLimit = limit }
        configuration.mediaOrigins = options.mediaOrigins
        configuration.apiCertificateFile = options.apiCertificateFile
        configuration.dataDirectory = options.dataDirectory ?? data
        configuration.fastPasswordHashesForTests = !options.realPasswordHashes
        let panel: any RunningPanel
        let browser: TestBrowser
        if options.live {
            let started = try AdminPanel(configuration: configuration)
            browser = TestBrowser(port: try started.start())
            panel = started
        } else {
            let inProcess = try InProcessPanel(configuration: configuration, transport: upstream)
            browser = TestBrowser(router: inProcess.router, port: InProcessPanel.port)
            panel = inProcess
        }
        let harness = PanelHarness(sandbox: sandbox, panel: panel, browser: browser, clock: clock,
                                   dataDirectory: data, client: ClientConfiguration(baseURL: sandbox.baseURL, dialect: options.dialect,
                                                                                    identifier: demo.identifier, secret: demo.secret,
                                                                                    timeout: 60),
                                   demoSecret: demo.secret, demoIdentifier: demo.identifier, transport: upstream)
        harness.panelConfiguration = configuration
        return harness
    }

    private init(sandbox: Sandbox?, panel: any RunningPanel, browser: TestBrowser, clock: ManualClock, dataDirectory: URL,
                 client: ClientConfiguration, demoSecret: String, demoIdentifier: String, transport: any HTTPTransport) {
        self.sandbox = sandbox
        self.panel = panel
        self.browser = browser
        self.clock = clock
        self.dataDirectory = dataDirectory
        self.client = client
        self.demoSecret = demoSecret
        self.demoIdentifier = demoIdentifier
        self.transport = transport
    }

    /// The API directly (not through the panel), to set up or check state. Through the panel's
    /// kind of transport: live the pooled client (URLSession on Linux stalls under many parallel
    /// tests), in-process the sandbox's router.
    var api: OpenMarketClient { OpenMarketClient(configuration: client, transport: transport) }
    let transport: any HTTPTransport

    /// Another panel on the same configuration, DATA and sandbox, on the harness's tier, with a
    /// browser of its own; the caller stops it.
    func anotherPanel() throws -> (any RunningPanel, TestBrowser) {
        if browser.router == nil {
            let started = try AdminPanel(configuration: panelConfiguration)
            return (started, TestBrowser(port: try started.start()))
        }
        let inProcess = try InProcessPanel(configuration: panelConfiguration, transport: transport)
        return (inProcess, TestBrowser(router: inProcess.router, port: InProcessPanel.port))
    }

    func stop() async {
        await panel.shutdown()
        await sandbox?.shutdown()
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    /// Registers a product straight on the API.
    @discardableResult
    func makeProduct(name: String = "Test product", images: Int = 1, stock: Int = 3) async throws -> ProductDetail {
        let uploads = (0..<images).map { ImageUpload(filename: "p\($0).png", data: TestImages.png(seed: UInt8($0))) }
        return try await api.create(NewProduct(name: name, description: "A product made by a test.", price: 12000,
                                               currency: .KRW, discountedPrice: 0, stock: stock, images: uploads))
    }

    /// The CSRF token of a page's form (a GET creates the session).
    func csrfToken(from path: String) async throws -> String {
        let page = try await browser.get(path)
        guard let token = page.inputValue("csrf_token"), !token.isEmpty else {
            throw TestClientFailure(description: "no csrf_token on \(path) (status \(page.status))")
        }
        return token
    }
}

/// Real image bytes: a valid PNG of a few pixels (different per seed), and padded variants.
enum TestImages {
    static func png(seed: UInt8 = 0) -> Data {
        // 1×1 RGB PNG; the pixel colour varies with the seed (the CRC is recomputed).
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        data.append(chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]))
        let raw: [UInt8] = [0, seed, 128, 255 &- seed]
        data.append(chunk("IDAT", zlibStored(raw)))
        data.append(chunk("IEND", []))
        return data
    }

    /// A PNG that is `size` bytes long (valid head, padding after IEND) — over the 300 KB rule.
    static func largePNG(size: Int) -> Data {
        var data = png()
        data.append(Data(count: max(0, size - data.count)))
        return data
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> Data {
        var data = Data()
        let length = UInt32(body.count)
        data.append(contentsOf: withUnsafeBytes(of: length.bigEndian, Array.init))
        let typed = Array(type.utf8) + body
        data.append(contentsOf: typed)
        data.append(contentsOf: withUnsafeBytes(of: crc32(typed).bigEndian, Array.init))
        return data
    }

    private static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
        let length = UInt16(raw.count)
        var out: [UInt8] = [0x78, 0x01, 0x01, UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff), UInt8(~length >> 8)]
        out += raw
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        out += withUnsafeBytes(of: ((b << 16) | a).bigEndian, Array.init)
        return out
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xedb8_8320 : 0) }
        }
        return ~crc
    }
}
