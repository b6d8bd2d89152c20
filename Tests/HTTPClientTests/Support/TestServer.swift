import Foundation
import HTTPServer

/// Starts a server on an ephemeral loopback port for one test: the client's counterpart.
func withServer(_ router: Router, limits: ServerLimits = ServerLimits(),
                _ body: (HTTPServer, Int) async throws -> Void) async throws {
    let server = HTTPServer(configuration: ServerConfiguration(port: 0, limits: limits, accessLog: nil), router: router)
    let port = try server.start()
    do { try await body(server, port) } catch {
        await server.shutdown(deadline: .seconds(1))
        throw error
    }
    await server.shutdown(deadline: .seconds(1))
}

/// Polls `condition` until it holds or `seconds` pass (generous: the machine may be slow).
func eventually(seconds: Double = 20, _ condition: () -> Bool) async -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
