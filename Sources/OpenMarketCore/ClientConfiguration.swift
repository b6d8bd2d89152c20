import Foundation

/// Where the API is and who the vendor is. `identifier` and `secret` are credentials: the client
/// never puts them into an error or a log line.
public struct ClientConfiguration: Sendable {
    /// e.g. `https://openmarket.yagom-academy.kr`; a path prefix is kept (`http://h/prefix/api/…`).
    public var baseURL: URL
    public var dialect: Dialect = .v2a
    public var identifier: String
    public var secret: String
    /// Seconds for one HTTP exchange.
    public var timeout: TimeInterval = 10

    public init(baseURL: URL, dialect: Dialect = .v2a, identifier: String, secret: String, timeout: TimeInterval = 10) {
        self.baseURL = baseURL
        self.dialect = dialect
        self.identifier = identifier
        self.secret = secret
        self.timeout = timeout
    }
}
