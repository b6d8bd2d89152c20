import HTTPServer
import NetworkIO

/// The sandbox answers only requests that name it: its loopback names (`127.0.0.1`, `localhost`,
/// `[::1]`) or the address it listens on, each with its port, plus names allowed on purpose.
/// Any other `Host` gets 421. Without this a web page could re-point a name of its own at
/// 127.0.0.1 (DNS rebinding) and read or write the API — in v1, register items with no limit.
final class SandboxHostCheck: Sendable {
    private let names: Set<String>
    /// Whole `name:port` values allowed besides (lowercased).
    private let extra: Locked<Set<String>>
    private let port: Locked<Int>

    init(listeningHost: String, port: Int, allowed: [String]) {
        var names: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
        let own = HostName.bracketed(listeningHost.lowercased())
        if !["0.0.0.0", "[::]", ""].contains(own) { names.insert(own) }
        self.names = names
        extra = Locked(Set(allowed.map { $0.lowercased() }))
        self.port = Locked(port)
    }

    func listening(on port: Int) { self.port.value = port }

    func allow(_ hostAndPort: String) { extra.withLock { _ = $0.insert(hostAndPort.lowercased()) } }

    func allows(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if extra.value.contains(lowered) { return true }
        let name: Substring
        let given: Int?
        if lowered.hasPrefix("["), let close = lowered.firstIndex(of: "]") {
            name = lowered[...close]
            let rest = lowered[lowered.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return false }
            given = rest.isEmpty ? nil : Int(rest.dropFirst())
            if !rest.isEmpty, given == nil { return false }
        } else if let colon = lowered.lastIndex(of: ":") {
            name = lowered[..<colon]
            guard let number = Int(lowered[lowered.index(after: colon)...]) else { return false }
            given = number
        } else {
            name = Substring(lowered)
            given = nil
        }
        let port = self.port.value
        return names.contains(String(name)) && (given == port || (given == nil && port == 80))
    }

    var middleware: RouteMiddleware<BasicRequestContext> {
        { [self] request, context, next in
            guard let host = request.headers["Host"], allows(host) else {
                var response = HTTPResponse.text("Misdirected request: this Open Market sandbox answers only to its own "
                                                 + "loopback names and port (e.g. 127.0.0.1:\(port.value)).\n", status: 421)
                response.headers["Connection"] = "close"
                return response
            }
            return try await next(request, context)
        }
    }
}
