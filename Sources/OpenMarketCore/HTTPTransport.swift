import Foundation

/// One header line. Kept as an ordered list, so requests can be compared exactly in tests.
public struct HeaderField: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == HeaderField {
    /// The first value of a header, by case-insensitive name.
    public func value(for name: String) -> String? {
        first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// A request as the client wants it sent; the transport adds framing headers (Host, Content-Length).
public struct TransportRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    public var headers: [HeaderField]
    public var body: Data?
    public var timeout: TimeInterval

    public init(method: String, url: URL, headers: [HeaderField] = [], body: Data? = nil, timeout: TimeInterval) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

public struct TransportResponse: Sendable {
    public var status: Int
    public var headers: [HeaderField]
    public var body: Data

    public init(status: Int, headers: [HeaderField] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Sends one HTTP request. Injectable: URLSession by default, a pooled client in the panel,
/// a recording stub in tests. Failures: throw `URLError` (`.timedOut`, `.cannotConnectToHost`…),
/// `TransportError`, or any error — the client maps them to `.timeout` / `.unreachable`.
public protocol HTTPTransport: Sendable {
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// Failures a transport that is not URLSession-based can throw to be mapped precisely.
public enum TransportError: Error, Sendable, Equatable {
    case timeout
    /// `reason` is shown to the seller: never put a secret in it.
    case unreachable(reason: String)
}
