import Foundation
import HTTPServer
import OpenMarketCore

/// `/healthz`: the panel is up, and whether the API answers.
struct HealthController: Sendable {
    let configuration: PanelConfiguration
    let apiHealth: APIHealthProbe

    /// `GET /healthz`: the panel is up; whether the API answers its health check; the version.
    func health(_ request: HTTPRequest) async throws -> HTTPResponse {
        let reachable = await apiHealth.reachable()
        let body: [String: Any] = ["panel": "up", "api_reachable": reachable, "version": configuration.version]
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        var response = HTTPResponse.json(data, status: 200)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/healthz", open: \.controllers.healthController) { try await $0.health($1) }
    }
}

/// Whether the API answers its health check, asked at most once per `maxAge` whoever asks
/// `/healthz` (anonymous callers included) and by one request at a time: a flood of health
/// checks never becomes a flood of API calls.
actor APIHealthProbe {
    static let defaultMaxAge: TimeInterval = 5

    private let client: OpenMarketClient
    private let maxAge: TimeInterval
    private let now: @Sendable () -> Date
    private var cached: (reachable: Bool, at: Date)?
    private var running: Task<Bool, Never>?

    init(client: OpenMarketClient, maxAge: TimeInterval, now: @escaping @Sendable () -> Date) {
        self.client = client
        self.maxAge = maxAge
        self.now = now
    }

    func reachable() async -> Bool {
        // A clock that went back counts as stale too.
        if let cached, case let age = now().timeIntervalSince(cached.at), age >= 0, age < maxAge { return cached.reachable }
        if let running { return await running.value }
        let task = Task { [client] in (try? await client.healthCheck()) ?? false }
        running = task
        let result = await task.value
        running = nil
        cached = (result, now())
        return result
    }
}
