import Foundation
import HTTPClient
import OpenMarketCore

/// The client core's transport on the server module's pooled keep-alive `HTTPClient`: on
/// loopback it is several times faster than URLSession, which matters for the list page.
/// `https://` APIs (which `HTTPClient` does not speak) go through URLSession.
struct PooledTransport: HTTPTransport {
    private let client: HTTPClient
    private let fallback: URLSessionTransport

    /// The longest answer taken from the API. Its JSON is a few hundred KB at most (a page of 100
    /// products) and images are under 300 KB by its rules, so anything near this is garbage: it
    /// is refused as it is declared, before being buffered. (Buffering tens of MiB per request
    /// from a broken API left the panel's RSS 50 MiB higher for good: glibc kept the memory.)
    static let maxResponseBodyBytes = 8 << 20

    init(maxConnectionsPerHost: Int = 64) {
        client = HTTPClient(maxConnectionsPerHost: maxConnectionsPerHost, connectTimeout: .seconds(5),
                            maxResponseBodyBytes: Self.maxResponseBodyBytes)
        fallback = URLSessionTransport()
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard request.url.scheme?.lowercased() == "http" else { return try await fallback.send(request) }
        do {
            let answer = try await client.send(method: request.method, url: request.url,
                                               headers: request.headers.map { ($0.name, $0.value) },
                                               body: request.body, timeout: .milliseconds(WholeNumber.clamped(request.timeout * 1000)))
            return TransportResponse(status: answer.status,
                                     headers: answer.headers.map { HeaderField(name: $0.0, value: $0.1) },
                                     body: answer.body)
        } catch let error as HTTPClientError {
            throw Self.translate(error)
        }
    }

    /// Reasons shown to the seller say what happened, never which headers were sent.
    static func translate(_ error: HTTPClientError) -> TransportError {
        switch error {
        case .timeout: return .timeout
        case .connectionFailed(let reason): return .unreachable(reason: "connection failed: \(reason)")
        case .malformedResponse: return .unreachable(reason: "the server's answer was not valid HTTP")
        case .invalidRequest(let reason): return .unreachable(reason: "the request could not be sent: \(reason)")
        }
    }
}
