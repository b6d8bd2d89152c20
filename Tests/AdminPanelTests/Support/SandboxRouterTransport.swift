import Foundation
import HTTPServer
import OpenMarketCore
@testable import AdminPanel

/// The panel's upstream in the in-process tier: each request goes to the sandbox's router,
/// framed as the panel's pooled client frames it on the wire (`Host`, `Accept-Encoding`,
/// `Content-Length`), and the answer comes back as that client reads it. The sandbox behaves as
/// it does behind its listener; no socket is opened. Any other origin is unreachable: a test that
/// needs another server (photos, media, a hostile API) belongs to the live tier.
struct SandboxRouterTransport: HTTPTransport {
    let router: Router<BasicRequestContext>
    /// The sandbox's address: it never listens, and is configured with `port`.
    let origin: URL

    /// The port the sandbox's address names. Nothing listens there (a privileged port no service
    /// uses), so a request that reached for a socket by mistake fails at once.
    static let port = 2

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard request.url.scheme == origin.scheme, request.url.host == origin.host, request.url.port == origin.port else {
            throw TransportError.unreachable(reason: "connection failed: the in-process tier reaches only the sandbox")
        }
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        let host = (request.url.host ?? "") + (request.url.port.map { ":\($0)" } ?? "")
        var headers: [(String, String)] = [("Host", host)]
        let framing: Set<String> = ["host", "content-length", "transfer-encoding", "connection", "accept-encoding"]
        for field in request.headers where !framing.contains(field.name.lowercased()) { headers.append((field.name, field.value)) }
        headers.append(("Accept-Encoding", "identity"))
        if let body = request.body {
            headers.append(("Content-Length", String(body.count)))
        } else if ["POST", "PUT", "PATCH"].contains(request.method) {
            headers.append(("Content-Length", "0"))
        }
        let routed = try HTTPRequest(method: request.method, target: target, headers: HTTPHeaders(headers),
                                     body: RequestBody(request.body ?? Data()), remoteAddress: RouterExchange.remoteAddress)
        let answer = try await RouterExchange.send(routed, to: router, timeoutSeconds: max(request.timeout, 1))
        if let refusal = PooledTransport.redirectRefusal(status: answer.status, headers: answer.headers.map { ($0.name, $0.value) }) {
            throw refusal
        }
        return TransportResponse(status: answer.status, headers: answer.headers.map { HeaderField(name: $0.name, value: $0.value) },
                                 body: answer.body)
    }
}
