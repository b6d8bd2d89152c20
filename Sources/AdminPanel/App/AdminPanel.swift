import Foundation
import HTTPServer
import OpenMarketCore

/// The admin panel: an HTTP server with the panel's routes, talking to the Open Market API
/// through the client core. Start it, read its `port`, shut it down.
public final class AdminPanel: Sendable {
    let app: PanelApp
    private let server: HTTPServer
    private let chores: PanelChores

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
        chores = PanelChores(app: app)
    }

    /// Binds and listens; answers the real port (useful with port 0).
    @discardableResult
    public func start() throws -> Int {
        let port = try server.start()
        app.listeningPort.value = port
        chores.start()
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
        await chores.stop()
    }

    /// A second stop signal: stop waiting for exchanges in flight (nothing answered is lost).
    public func hurryShutdown() { server.hurry() }
}
