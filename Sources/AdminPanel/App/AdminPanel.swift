import Foundation
import HTTPServer
import OpenMarketCore

/// The admin panel: an HTTP server with the panel's routes, talking to the Open Market API
/// through the client core. Start it, read its `port`, shut it down.
public final class AdminPanel: Sendable {
    let app: PanelApp
    private let server: HTTPServer
    private let sweeper = Sweeper()
    /// The live streams' chore: session checks, keep-alives.
    private let liveTicker = Sweeper()

    /// Loads the templates and prepares the routes; fails with a one-sentence reason.
    /// `transport` defaults to a pooled keep-alive client for upstream calls (HTTP and HTTPS).
    public init(configuration: PanelConfiguration, transport: (any HTTPTransport)? = nil) throws {
        for (what, folder) in [("public", configuration.publicDirectory), ("templates", configuration.templatesDirectory)] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw PanelStartupError("the \(what) folder \(folder.path) does not exist")
            }
        }
        let upstream: any HTTPTransport
        if let transport {
            upstream = transport
        } else if let file = configuration.apiCertificateFile {
            do {
                upstream = try PooledTransport(trustedCertificateFile: file)
            } catch {
                throw PanelStartupError("--api-ca: \(error.description)")
            }
        } else {
            upstream = PooledTransport()
        }
        app = try PanelApp(configuration: configuration, transport: upstream)
        var serverConfiguration = ServerConfiguration(host: configuration.host, port: configuration.port)
        serverConfiguration.eventLoopCount = max(1, configuration.eventLoopCount)
        serverConfiguration.limits.defaultBodyLimit = 64 * 1024
        // Handlers start on their connection's loop: no thread hand-off per request. They never
        // block it: SQLite, password hashing and staged files run on threads of their own.
        serverConfiguration.runHandlersOnEventLoops = true
        if let tls = configuration.tls {
            // The plain-HTTP 400 page links only to the panel's own names.
            let allowList = app.hostAllowList
            let loopback: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
            let fallback = allowList.ownNames.first { !loopback.contains($0) } ?? "localhost"
            serverConfiguration.transportFactory = TLSTransport.factory(
                context: tls, plainHTTPHosts: PlainHTTPHosts(fallback: fallback) { allowList.allows(host: $0, port: $1) })
        }
        serverConfiguration.limits.maxConnections = configuration.maxConnections
        serverConfiguration.accessLogDestination = configuration.accessLogDestination
        server = HTTPServer(configuration: serverConfiguration, router: app.routes())
    }

    /// Binds and listens; answers the real port (useful with port 0).
    @discardableResult
    public func start() throws -> Int {
        let port = try server.start()
        app.listeningPort.value = port
        // Scheduled discounts: v2 only (v1 would need stored product passwords).
        if app.controllers.saleSections.salesAvailable { Task { [scheduler = app.saleScheduler] in await scheduler.start() } }
        // Staged uploads of abandoned forms expire even if nobody submits again.
        let staging = app.uploads.staging
        let activity = app.stores.activity, days = app.configuration.activityDays, sessions = app.stores.sessions
        let app = app
        let imports = app.stores.imports, now = app.configuration.now
        Task { [liveTicker, live = app.controllers.liveController] in await liveTicker.run(every: .seconds(1)) { await live.tick() } }
        Task { await activity.purge(olderThanDays: days) }
        Task { await app.controllers.trashKeeper.sweepTrash() }
        Task {
            await sweeper.run(every: .seconds(300)) {
                await staging.purgeExpired()
                await activity.purge(olderThanDays: days)
                await sessions.purgeExpired()
                await app.controllers.trashKeeper.sweepTrash()
                await imports.purge(now: now())
            }
        }
        return port
    }

    public var port: Int { server.port }

    /// `/setup/<token>` while sign-in is on and no owner exists yet (the start-up output prints it).
    public var setupPath: String? { app.setupToken.map { "/setup/" + $0 } }

    /// The address colleagues open (`--public-url`, else the LAN address with a wildcard `--host`,
    /// else the listening address), without a trailing slash; start-up prints it.
    public var colleagueBaseURL: String { app.controllers.peopleController.colleagueBaseURL }

    /// Connections served at once (below `maxConnections` when the open-file limit is lower).
    public var connectionCapacity: Int { server.connectionCapacity }

    /// The names the panel answers to (for the start-up output and a certificate's SANs).
    public var allowedHosts: HostAllowList { app.hostAllowList }

    /// The clean stop (docs/stopping.md): stops accepting, lets exchanges in
    /// flight finish and closes idle connections; then lets the background chores and the
    /// catalog copy's sync finish what they started, removes staged uploads, and closes
    /// `panel.sqlite` after its queued writes (activity, sessions, the catalog copy). The caller
    /// drains the access log before exiting.
    public func shutdown() async {
        await server.shutdown()
        await liveTicker.stop()
        await sweeper.stop()
        await app.saleScheduler.stop()
        await app.upstream.catalog.stop()
        await app.uploads.staging.removeAll()
        app.uploads.scratch.remove()
        await app.stores.database.database.close()
    }

    /// A second stop signal: stop waiting for exchanges in flight (nothing answered is lost).
    public func hurryShutdown() { server.hurry() }
}
