import Foundation
import HTTPClient
import OpenMarketCore
import TLS

/// The client core's transport on the project's own pooled keep-alive `HTTPClient`, for the API
/// and media origins alike, `http://` and `https://` (TLS through OpenSSL: the system's CA store
/// plus `--api-ca`, SNI, the host name checked). It is the panel's one door to the outside: the
/// import's photo fetches use its `client` too, with their own limits.
struct PooledTransport: HTTPTransport {
    let client: HTTPClient

    /// The longest answer taken from the API. Its JSON is a few hundred KB at most (a page of 100
    /// products) and images are under 300 KB by its rules, so anything near this is garbage: it
    /// is refused as it is declared, before being buffered. (Buffering tens of MiB per request
    /// from a broken API left the panel's RSS 50 MiB higher for good: glibc kept the memory.)
    static let maxResponseBodyBytes = 8 << 20

    /// `trustedCertificateFile` (`--api-ca`): one more PEM certificate HTTPS servers may present
    /// or chain to, besides the system's CA store. A file that holds none fails here, at start-up.
    init(maxConnectionsPerHost: Int = 64, trustedCertificateFile: String?) throws(TLSError) {
        client = try Self.client(maxConnectionsPerHost: maxConnectionsPerHost, trustedCertificateFile: trustedCertificateFile)
    }

    /// Without extra trust (the system's CA store, loaded at the first https:// request): cannot fail.
    init(maxConnectionsPerHost: Int = 64) {
        client = HTTPClient(maxConnectionsPerHost: maxConnectionsPerHost, connectTimeout: .seconds(5),
                            maxResponseBodyBytes: Self.maxResponseBodyBytes)
    }

    /// The client behind the transport: the system's CA store, plus `trustedCertificateFile`.
    static func client(maxConnectionsPerHost: Int = 64, trustedCertificateFile: String?) throws(TLSError) -> HTTPClient {
        let tls = try trustedCertificateFile.map { file throws(TLSError) in try TLSContext.client(trustedCertificateFiles: [file]) }
        return HTTPClient(maxConnectionsPerHost: maxConnectionsPerHost, connectTimeout: .seconds(5),
                          maxResponseBodyBytes: Self.maxResponseBodyBytes, tls: tls)
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let answer: (status: Int, headers: [(String, String)], body: Data)
        do {
            answer = try await client.send(method: request.method, url: request.url,
                                           headers: request.headers.map { ($0.name, $0.value) },
                                           body: request.body, timeout: .milliseconds(WholeNumber.clamped(request.timeout * 1000)))
        } catch let error as HTTPClientError {
            throw Self.translate(error)
        }
        if let refusal = Self.redirectRefusal(status: answer.status, headers: answer.headers) { throw refusal }
        return TransportResponse(status: answer.status,
                                 headers: answer.headers.map { HeaderField(name: $0.0, value: $0.1) },
                                 body: answer.body)
    }

    /// A 3xx is never followed: the request (with the vendor's identifier and secret in its
    /// headers) would go to an address nobody configured, and a 307/308 would send its body
    /// again. The seller is told what the API tried, naming only the other address's origin
    /// (its path or query could carry a token).
    static func redirectRefusal(status: Int, headers: [(String, String)]) -> TransportError? {
        guard (300..<400).contains(status), status != 304 else { return nil }
        var origin: String?
        if let location = headers.first(where: { $0.0.lowercased() == "location" })?.1,
           let target = URL(string: location), let scheme = target.scheme?.lowercased(), let host = target.host {
            origin = "\(scheme)://\(host)\(target.port.map { ":\($0)" } ?? "")"
        }
        return .unreachable(reason: UpstreamRefusal.redirectReason(status: status, target: origin))
    }

    /// Reasons shown to the seller say what happened, never which headers were sent.
    static func translate(_ error: HTTPClientError) -> TransportError {
        switch error {
        case .timeout: return .timeout
        case .connectionFailed(let reason): return .unreachable(reason: "connection failed: \(reason)")
        case .malformedResponse: return .unreachable(reason: "the server's answer was not valid HTTP, or larger than 8 MiB")
        case .invalidRequest(let reason): return .unreachable(reason: "the request could not be sent: \(reason)")
        case .bodyTooLarge(let limit): return .unreachable(reason: "the server's answer was larger than \(limit >> 20) MiB")
        case .encodedBody(let coding): return .unreachable(reason: "the server's answer was \(coding)-compressed, which was not asked for")
        case .incompleteResponse: return .unreachable(reason: "the server closed the connection before its answer was complete")
        }
    }
}
