import Foundation
import NetworkIO
#if canImport(Glibc)
import Glibc
#endif

/// The panel's own names, against which every request's `Host` and every POST's `Origin` is
/// checked (docs/lan-console.md, "The names it answers to"). A DNS-rebinding page reaches the panel under a
/// foreign name, so a name outside this list never gets an answer; the Origin check compares
/// with this list, never with the request's own `Host` (which the rebinding page controls).
///
/// On loopback: `127.0.0.1`, `localhost`, `[::1]` on the panel's port. Bound beyond loopback,
/// also the machine's interface addresses, its host name and `HOSTNAME.local`. Plus every
/// `--allowed-host NAME[:PORT]`: with a port exactly that; without, NAME on the panel's port
/// and NAME without a port (a reverse proxy on the scheme's default port).
public struct HostAllowList: Sendable, Equatable {
    /// Host names (lowercased) and addresses (IPv6 in brackets) answered on the panel's port.
    public let ownNames: [String]
    /// `--allowed-host` entries as given (lowercased).
    public let extraEntries: [Entry]

    public struct Entry: Sendable, Equatable {
        public var name: String
        public var port: Int?
    }

    /// A bad `--allowed-host` value, explained in one line.
    public struct Problem: Error, Equatable, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// `interfaces` and `hostName` default to this machine's; tests pass their own.
    public init(bindHost: String, allowedHosts: [String], interfaces: [String]? = nil,
                hostName: String? = nil) throws(Problem) {
        var names = ["127.0.0.1", "localhost", "[::1]"]
        if !Self.isLoopback(bindHost) {
            for address in interfaces ?? Self.interfaceAddresses() {
                let shown = address.contains(":") ? "[\(address.lowercased())]" : address
                if !names.contains(shown) { names.append(shown) }
            }
            if let host = (hostName ?? Self.machineHostName())?.lowercased(), !host.isEmpty {
                let bare = host.hasSuffix(".local") ? String(host.dropLast(6)) : host
                for name in [bare, bare + ".local"] where !names.contains(name) { names.append(name) }
            }
            let bound = bindHost.lowercased()
            if bound != "0.0.0.0", bound != "::", bound != "[::]" {
                let shown = bound.contains(":") && !bound.hasPrefix("[") ? "[\(bound)]" : bound
                if !names.contains(shown) { names.append(shown) }
            }
        }
        ownNames = names
        var entries: [Entry] = []
        for raw in allowedHosts {
            let text = raw.trimmingCharacters(in: .whitespaces).lowercased()
            guard !text.isEmpty else { continue }
            guard let (name, port) = Self.split(text), Self.isPlausibleName(name) else {
                throw Problem(description: "--allowed-host takes a name like panel.example or panel.example:8443, not '\(raw)'")
            }
            entries.append(Entry(name: name, port: port))
        }
        extraEntries = entries
    }

    /// Whether a `Host` header value names this panel listening on `port`.
    public func allows(host: String, port: Int) -> Bool {
        guard let (name, given) = Self.split(host.lowercased()) else { return false }
        if ownNames.contains(name), given == port || (given == nil && (port == 80 || port == 443)) { return true }
        for entry in extraEntries where entry.name == name {
            if let fixed = entry.port {
                if given == fixed { return true }
            } else if given == nil || given == port {
                return true
            }
        }
        return false
    }

    /// Whether an `Origin` header value (`scheme://host[:port]`) is this panel's own origin.
    /// `null` and anything but http(s) are foreign. A panel that serves HTTPS itself has no
    /// `http://` origin: such a page could only come from someone answering in its place.
    /// (A plain panel accepts `https://` too, for a TLS proxy in front of it.)
    public func allows(origin: String, port: Int, servesHTTPS: Bool = false) -> Bool {
        let lowered = origin.lowercased()
        for scheme in servesHTTPS ? ["https://"] : ["http://", "https://"] where lowered.hasPrefix(scheme) {
            let authority = String(lowered.dropFirst(scheme.count))
            guard !authority.contains("/") else { return false }
            return allows(host: authority, port: port)
        }
        return false
    }

    /// Every name with the panel's port, as a browser's address bar would show it (start-up
    /// output, docs), and the bare names and addresses a certificate's SANs need.
    public func names(port: Int) -> [String] {
        ownNames.map { "\($0):\(port)" } + extraEntries.map { entry in entry.port.map { "\(entry.name):\($0)" } ?? entry.name }
    }

    /// For a certificate: DNS names (no port).
    public var certificateDNSNames: [String] {
        var out: [String] = []
        for name in ownNames + extraEntries.map(\.name) where !Self.isAddress(name) && !out.contains(name) { out.append(name) }
        return out
    }

    /// For a certificate: IP addresses (no brackets, no port).
    public var certificateAddresses: [String] {
        var out: [String] = []
        for name in ownNames + extraEntries.map(\.name) where Self.isAddress(name) {
            let bare = name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if !out.contains(bare) { out.append(bare) }
        }
        return out
    }

    // MARK: parsing

    /// `name[:port]` or `[v6][:port]` → (name, port). nil when malformed.
    static func split(_ text: String) -> (String, Int?)? {
        guard !text.isEmpty, !containsForbidden(text) else { return nil }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let name = String(text[...close])
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return (name, nil) }
            guard rest.hasPrefix(":"), let port = Self.port(rest.dropFirst()) else { return nil }
            return (name, port)
        }
        // By bytes: this runs on every request's Host, and a generic split costs thousands of
        // instructions. (A `:` with a combining mark after it is no port separator for a
        // Character-wise split; either way such a name is refused, as no allowed name has one.)
        let bytes = text.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return (text, nil) }
        let name = text[..<colon]
        let rest = text[bytes.index(after: colon)...]
        // A second `:`: a bare IPv6 address, which must be bracketed.
        guard !name.isEmpty, !rest.utf8.contains(UInt8(ascii: ":")), let port = Self.port(rest) else { return nil }
        return (String(name), port)
    }

    /// Whitespace, `/` or `@`. Runs on every request's Host: bytes first, Characters only when
    /// there is non-ASCII text (whose whitespace needs Unicode's properties).
    private static func containsForbidden(_ text: String) -> Bool {
        var ascii = true
        for b in text.utf8 {
            if b == UInt8(ascii: "/") || b == UInt8(ascii: "@") || b <= ASCII.space || b == 0x7F { return true }
            if b >= 0x80 { ascii = false }
        }
        return !ascii && text.contains(where: \.isWhitespace)
    }

    private static func port(_ text: Substring) -> Int? {
        // ASCII digits, checked by bytes (Character properties cost thousands of instructions per request).
        guard !text.isEmpty, text.utf8.count <= 5, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int(text), (1...65535).contains(value) else { return nil }
        return value
    }

    private static func isPlausibleName(_ name: String) -> Bool {
        if name.hasPrefix("[") { return name.count > 2 }
        return name.count <= 253 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
    }

    static func isAddress(_ name: String) -> Bool {
        name.hasPrefix("[") || (name.split(separator: ".").count == 4 && name.allSatisfy { $0.isNumber || $0 == "." })
    }

    static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return lowered == "localhost" || lowered == "::1" || lowered.hasPrefix("127.")
    }

    // MARK: this machine

    /// The machine's interface addresses (IPv4 and global IPv6; link-local IPv6 needs a zone,
    /// which browsers cannot put in a Host header).
    static func interfaceAddresses() -> [String] {
        // getifaddrs hands back a C linked list, walked here and freed once.
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var out: [String] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.contains("%") || text.lowercased().hasPrefix("fe80") { continue }
            if !out.contains(text) { out.append(text) }
        }
        return out
    }

    static func machineHostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}
