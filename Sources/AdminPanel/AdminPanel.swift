import Foundation
import HTTPServer
import OpenMarketCore

/// The admin panel: an HTTP server with the panel's routes, talking to the Open Market API
/// through the client core. Start it, read its `port`, shut it down.
public final class AdminPanel: Sendable {
    let app: PanelApp
    private let server: HTTPServer
    private let sweeper = Sweeper()

    /// Loads the templates and prepares the routes; fails with a one-sentence reason.
    /// `transport` defaults to a pooled keep-alive client for upstream calls.
    public init(configuration: PanelConfiguration, transport: (any HTTPTransport)? = nil) throws {
        for (what, folder) in [("public", configuration.publicDirectory), ("templates", configuration.templatesDirectory)] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw PanelStartupError("the \(what) folder \(folder.path) does not exist")
            }
        }
        let upstream: any HTTPTransport
        if let transport { upstream = transport } else { upstream = PooledTransport() }
        app = try PanelApp(configuration: configuration, transport: upstream)
        var serverConfiguration = ServerConfiguration(host: configuration.host, port: configuration.port)
        serverConfiguration.eventLoopCount = max(1, configuration.eventLoopCount)
        serverConfiguration.limits.defaultBodyLimit = 64 * 1024
        if let write = configuration.accessLog {
            serverConfiguration.accessLog = { entry in write(entry.line) }
        } else {
            serverConfiguration.accessLog = nil
        }
        server = HTTPServer(configuration: serverConfiguration, router: app.routes())
    }

    /// Binds and listens; answers the real port (useful with port 0).
    @discardableResult
    public func start() throws -> Int {
        let port = try server.start()
        // Staged uploads of abandoned forms expire even if nobody submits again.
        let staging = app.staging
        Task { await sweeper.run(every: .seconds(300)) { await staging.purgeExpired() } }
        return port
    }

    public var port: Int { server.port }

    /// Stops accepting, lets requests in flight finish, removes staged uploads.
    public func shutdown() async {
        await sweeper.stop()
        await server.shutdown()
        await app.staging.removeAll()
        app.scratch.remove()
    }
}

/// Runs a periodic chore until stopped.
actor Sweeper {
    private var task: Task<Void, Never>?
    private var stopped = false

    func run(every interval: Duration, _ chore: @escaping @Sendable () async -> Void) {
        guard !stopped else { return }
        task?.cancel()
        task = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                await chore()
            }
        }
    }

    func stop() {
        stopped = true
        task?.cancel()
        task = nil
    }
}

extension PanelApp {
    /// The routes of design.md, wrapped so every response carries the security headers.
    func routes() -> Router {
        var router = Router()
        router.use(SecurityHeaders.middleware)
        router.use(originCheckMiddleware())
        router.use(accessControlMiddleware())

        router.get("/") { _ in .redirect(to: "/products", status: 303) }
        router.get("/products", pageHandler { app, request in try await app.listPage(request) })
        router.post("/products", bodyLimit: configuration.uploadLimit, pageHandler { app, request in try await app.registerProduct(request) })
        router.get("/products/new", pageHandler { app, request in try await app.registerForm(request) })
        router.get("/products/{id}", pageHandler { app, request in try await app.detailPage(request) })
        router.get("/products/{id}/edit", pageHandler { app, request in try await app.editForm(request) })
        router.post("/products/{id}/edit", bodyLimit: 64 * 1024, pageHandler { app, request in try await app.updateProduct(request) })
        router.get("/products/{id}/delete", pageHandler { app, request in try await app.deletePrompt(request) })
        router.post("/products/{id}/delete", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.deleteProduct(request) })
        router.get("/uploads/{token}/{image}", pageHandler { app, request in try await app.stagedPreview(request) })
        router.get("/media/{path...}") { [self] request in try await mediaFile(request) }
        router.get("/healthz") { [self] request in try await health(request) }
        router.get("/static/{path...}") { [self] request in
            staticFiles.response(for: request.pathParameters["path"] ?? "", request: request)
        }
        router.get("/login", pageHandler { app, request in try await app.loginForm(request) })
        router.post("/login", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.login(request) })
        router.post("/logout", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.logout(request) })
        router.notFoundHandler = { [self] request in
            await errorPage(.notFound(), request: request)
        }
        // A body over a route's limit, refused by the server before reading it: the 413 page.
        router.payloadTooLargeHandler = { [self] request in
            await errorPage(failure(for: HTTPError(status: 413, message: "Upload too large")), request: request)
        }
        return router
    }
}
