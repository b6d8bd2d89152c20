import Foundation
import NetworkIO

/// The address colleagues open for invitation and setup links, and the one start-up prints.
/// Neither the address the owner happens to use (`127.0.0.1` opens nothing on a colleague's PC)
/// nor the listening address `0.0.0.0` (no browser can open it) will do.
///
/// In order: `--public-url` as given; with a wildcard `--host` (`0.0.0.0`, `::`), the machine's
/// LAN address; else the address the panel listens on. A pure function of its inputs so tests can
/// hand it any set of interfaces.
enum ColleagueAddress {
    /// `scheme://host:port` without a trailing slash.
    static func base(publicURL: URL?, scheme: String, bindHost: String, port: Int, interfaces: [String]) -> String {
        if let publicURL {
            var text = publicURL.absoluteString
            while text.hasSuffix("/") { text.removeLast() }
            return text
        }
        let host: String
        if isWildcard(bindHost) {
            host = lanAddress(interfaces) ?? "127.0.0.1"
        } else {
            host = bindHost
        }
        return "\(scheme)://\(HostName.bracketed(host)):\(port)"
    }

    static func isWildcard(_ host: String) -> Bool {
        ["0.0.0.0", "::", "[::]", "", "*"].contains(host.lowercased())
    }

    /// The address a colleague on the same network most likely reaches: a private IPv4 address
    /// (192.168/16 first, then 10/8, then 172.16/12, where container bridges often live), then
    /// any other IPv4 that is not loopback or link-local, then a global IPv6 address.
    static func lanAddress(_ interfaces: [String]) -> String? {
        func rank(_ address: String) -> Int? {
            if address.contains(":") {
                let lowered = address.lowercased()
                if lowered == "::1" || lowered.hasPrefix("fe80") || lowered.contains("%") { return nil }
                return 5
            }
            let parts = address.split(separator: ".").compactMap { Int($0) }
            guard parts.count == 4 else { return nil }
            switch (parts[0], parts[1]) {
            case (127, _), (0, _), (169, 254): return nil
            case (192, 168): return 0
            case (10, _): return 1
            case (172, 16...31): return 2
            default: return 3
            }
        }
        return interfaces.enumerated()
            .compactMap { index, address in rank(address).map { (rank: $0, index: index, address: address) } }
            .min { ($0.rank, $0.index) < ($1.rank, $1.index) }?.address
    }
}

extension PeopleController {
    /// The address colleagues open (`ColleagueAddress`), for this panel as it runs.
    var colleagueBaseURL: String {
        let configuration = pages.configuration
        return ColleagueAddress.base(publicURL: configuration.publicURL, scheme: configuration.scheme, bindHost: configuration.host,
                                     port: listeningPort.value, interfaces: HostAllowList.interfaceAddresses())
    }
}
