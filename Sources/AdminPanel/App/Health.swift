import Foundation
import HTTPServer

extension PanelApp {
    /// `GET /healthz`: the panel is up; whether the API answers its health check; the version.
    func health(_ request: HTTPRequest) async throws -> HTTPResponse {
        let reachable = (try? await client.healthCheck()) ?? false
        let body: [String: Any] = ["panel": "up", "api_reachable": reachable, "version": configuration.version]
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        var response = HTTPResponse.json(data, status: 200)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
