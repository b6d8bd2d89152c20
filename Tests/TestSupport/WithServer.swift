import Foundation
import HTTPServer

/// Something a test starts and must stop before it ends: an `HTTPServer`, a stub API, a sandbox.
public protocol StoppableServer: Sendable {
    func stop() async
}

/// The tests' one scoped server: starts it, runs `body`, and awaits the stop whether `body`
/// returned or threw, so the next test never starts while this one's server still shuts down
/// (a `defer { Task { … } }` would leave it running and hide its failures). For servers whose
/// life is not one scope, register the stop with `Teardown.add` under `.awaitsTeardown`.
@discardableResult
public func withServer<Server: StoppableServer, Result>(_ start: () async throws -> Server,
                                                        _ body: (Server) async throws -> Result) async throws -> Result {
    let server = try await start()
    let result: Result
    do {
        result = try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
    return result
}

/// An `HTTPServer` on an ephemeral loopback port, speaking TLS with the run's test certificate
/// when the task's `Wire` is `.tls`.
public struct RunningServer: StoppableServer {
    public let server: HTTPServer
    public let port: Int

    public static func start(_ router: Router<BasicRequestContext>, limits: ServerLimits = ServerLimits(), handlersOnLoops: Bool = false,
                             transport: ConnectionTransportFactory? = nil) throws -> RunningServer {
        var configuration = ServerConfiguration(port: 0, limits: limits, accessLog: nil, runHandlersOnEventLoops: handlersOnLoops)
        if let transport {
            configuration.transportFactory = transport
        } else if Wire.current == .tls {
            configuration.transportFactory = TLSTransport.factory(context: TestCertificate.serverContext)
        }
        let server = HTTPServer(configuration: configuration, router: router)
        return RunningServer(server: server, port: try server.start())
    }

    public func stop() async { await server.shutdown(deadline: .seconds(1)) }
}

/// `withServer` for a router: the body gets the server and its port.
@discardableResult
public func withServer<Result>(_ router: Router<BasicRequestContext>, limits: ServerLimits = ServerLimits(), handlersOnLoops: Bool = false,
                               transport: ConnectionTransportFactory? = nil,
                               _ body: (HTTPServer, Int) async throws -> Result) async throws -> Result {
    try await withServer({ try RunningServer.start(router, limits: limits, handlersOnLoops: handlersOnLoops, transport: transport) }) {
        try await body($0.server, $0.port)
    }
}
