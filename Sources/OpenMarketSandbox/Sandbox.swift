import Foundation
import NetworkIO
import HTTPServer
import OpenMarketCore

/// The embedded Open Market API: a durable store and an HTTP listener serving both the API of
/// one dialect and the stored images. Used by `openmarket-sandbox` and, in-process, by the panel.
public final class Sandbox: Sendable {
    public let configuration: SandboxConfiguration
    private let store: ProductStore
    /// The v1 store when the dialect is v1 (closed at the stop like `store`).
    private let v1Store: V1Store?
    private let demo: VendorSetup.DemoVendor
    private let server: HTTPServer
    /// What the listener serves (the API behind the host check); tests call it in-process.
    public let router: Router<BasicRequestContext>
    private let base: Locked<String>
    /// The sandbox's own folder under DATA/uploads (large uploads are spooled there); claiming it
    /// removes what a killed process left.
    private let scratch: ScratchFolder
    private let hostCheck: SandboxHostCheck

    /// Opens (or creates) the store in the data folder, sets up the vendors and, when the store
    /// is empty and `seed` > 0, adds the sample products. Does not listen yet.
    public init(configuration: SandboxConfiguration) throws {
        self.configuration = configuration
        do {
            store = try ProductStore(directory: configuration.dataDirectory)
        } catch {
            throw SandboxStartupError("cannot open the data folder \(configuration.dataDirectory.path): \(error)")
        }
        demo = try VendorSetup.run(store: store, dataDirectory: configuration.dataDirectory,
                                   seeds: configuration.vendors)
        base = Locked(Self.url(host: configuration.host, port: configuration.port))
        do {
            scratch = try ScratchFolder.claim(in: configuration.dataDirectory.appendingPathComponent("uploads", isDirectory: true))
        } catch {
            throw SandboxStartupError("\(error)")
        }
        let spool = try? scratch.subfolder("spool")
        var router: Router<BasicRequestContext>
        if configuration.dialect == .v1 {
            // The 2021 API: its own store beside the v2 one; vendors exist but play no part.
            let items: V1Store
            do {
                items = try V1Store(directory: configuration.dataDirectory)
            } catch {
                throw SandboxStartupError("cannot open the v1 store in \(configuration.dataDirectory.path): \(error)")
            }
            v1Store = items
            if configuration.seed > 0 { _ = try V1SampleItems.seed(configuration.seed, store: items) }
            var api = V1API(store: items, input: V1Input(strict: configuration.strict), baseURL: base)
            api.spoolDirectory = spool
            router = api.router()
        } else {
            v1Store = nil
            if configuration.seed > 0 {
                _ = try SampleProducts.seed(configuration.seed, store: store, vendorID: demo.record.id)
            }
            var api = SandboxAPI(store: store, dialect: configuration.dialect,
                                 input: ProductInput(dialect: configuration.dialect, strict: configuration.strict),
                                 baseURL: base)
            api.spoolDirectory = spool
            router = api.router()
        }
        hostCheck = SandboxHostCheck(listeningHost: configuration.host, port: configuration.port,
                                     allowed: configuration.allowedHosts)
        router.middlewares.insert(hostCheck.middleware, at: 0)
        self.router = router
        var serverConfiguration = ServerConfiguration()
        serverConfiguration.host = configuration.host
        serverConfiguration.port = configuration.port
        if !configuration.logRequests { serverConfiguration.accessLog = nil }
        if let observer = configuration.requestObserver { serverConfiguration.accessLog = observer }
        server = HTTPServer(configuration: serverConfiguration, router: router)
    }

    /// Starts listening; returns the real port (useful with port 0).
    public func start() throws -> Int {
        let port = try server.start()
        hostCheck.listening(on: port)
        base.value = Self.url(host: configuration.host, port: port)
        return port
    }

    /// Answers requests naming `hostAndPort` too (a proxy in front of the sandbox, in tests).
    public func allowHost(_ hostAndPort: String) { hostCheck.allow(hostAndPort) }

    /// "http://host:port" of the listener (the configured port until `start()`).
    public var baseURL: URL { URL(string: base.value)! }

    /// The demo vendor; `created` is true on the first start only, so its secret is shown once.
    public var demoVendor: (id: Int, name: String, identifier: String, secret: String, created: Bool) {
        (demo.record.id, demo.record.name, demo.record.identifier, demo.record.secret, demo.created)
    }

    /// The clean stop (docs/stopping.md): stops accepting, lets exchanges in
    /// flight finish, closes idle connections, then lets queued writes land and closes the
    /// databases. The caller drains the access log (`AccessLogWriter.drain`) before exiting.
    public func shutdown() async {
        await server.shutdown()
        scratch.remove()
        await v1Store?.close()
        await store.close()
    }

    /// A second stop signal: stop waiting for exchanges in flight (nothing answered is lost).
    public func hurryShutdown() { server.hurry() }

    private static func url(host: String, port: Int) -> String {
        "http://\(HostName.bracketed(host)):\(port)"
    }
}
