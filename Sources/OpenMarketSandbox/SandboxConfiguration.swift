import Foundation
import HTTPServer
import OpenMarketCore

/// Everything a sandbox needs to start; the `openmarket-sandbox` flags map onto it one to one.
public struct SandboxConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (tests); `Sandbox.start()` returns the real one.
    public var port = 8081
    /// Holds `openmarket.sqlite`, `media/` and an optional `vendors.json`.
    public var dataDirectory: URL
    public var dialect: Dialect = .v2a
    /// Also enforce the lower bounds (name ≥ 3, description ≥ 10 characters).
    public var strict = false
    /// Vendors to add, or update by identifier, at every start.
    public var vendors: [VendorSeed] = []
    /// Fill an empty store with this many sample products at start.
    public var seed: Int = 0
    /// One access-log line per request on stderr (never with credentials).
    public var logRequests = true
    /// Sees every request's log entry (method, route, status) instead of the log; tests count
    /// with it what really reached the API.
    public var requestObserver: (@Sendable (AccessLogEntry) -> Void)?
    /// `Host` values (`name:port`) answered besides the sandbox's own loopback names and port.
    public var allowedHosts: [String] = []

    public init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }
}
