import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport: Foundation's URLSession (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url)
        // Set through the property: FoundationNetworking on Linux only honours a timeout set this
        // way (else it waits the session's 60 s), and counts whole seconds (0.5 would mean 0).
        urlRequest.timeoutInterval = max(1, request.timeout.rounded(.up))
        urlRequest.httpMethod = request.method
        for header in request.headers {
            urlRequest.addValue(header.value, forHTTPHeaderField: header.name)
        }
        urlRequest.httpBody = request.body
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        let headers = http.allHeaderFields.compactMap { key, value -> HeaderField? in
            guard let name = key as? String else { return nil }
            return HeaderField(name: name, value: "\(value)")
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: data)
    }
}
