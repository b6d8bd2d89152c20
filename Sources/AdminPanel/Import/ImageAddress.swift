import Foundation

/// Which photo addresses an import may fetch. Pure functions, so the rules are tested without a
/// network: the fetcher resolves the name, asks `isAllowed` about every address it got, and
/// connects only to an address that passed (a name re-pointed after the check cannot redirect it).
enum ImageAddress {
    /// An `http(s)` URL with a host and no user name or password in it; nil for anything else.
    static func webURL(_ text: String) -> URL? {
        guard text.utf8.count <= 2_000, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
              url.user == nil, url.password == nil else { return nil }
        return url
    }

    /// `scheme://host:port`, lowercased, with the scheme's default port written out.
    static func origin(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    /// An address is allowed when it is public, or when the URL's origin is one the panel trusts
    /// anyway (the API's own, a `--media-origin`): those may well live on loopback or a LAN.
    static func isAllowed(_ address: [UInt8], url: URL, trustedOrigins: [URL]) -> Bool {
        if let own = origin(url), trustedOrigins.contains(where: { origin($0) == own }) { return true }
        return isPublic(address)
    }

    /// Not loopback, private, link-local, shared (CGNAT), multicast, unspecified or reserved.
    /// `address` is 4 bytes (IPv4) or 16 (IPv6); IPv4-mapped and -compatible IPv6 are judged as IPv4.
    static func isPublic(_ address: [UInt8]) -> Bool {
        if address.count == 16 {
            let mapped = address[0..<10].allSatisfy { $0 == 0 } && address[10] == 0xFF && address[11] == 0xFF
            let compatible = address[0..<12].allSatisfy { $0 == 0 } && address[12...].contains { $0 != 0 }
                && !(address[12...15] == [0, 0, 0, 1])
            if mapped || compatible { return isPublic(Array(address[12...15])) }
            return isPublicIPv6(address)
        }
        guard address.count == 4 else { return false }
        let (a, b) = (address[0], address[1])
        switch a {
        case 0, 10, 127: return false                      // this network, private, loopback
        case 100 where (64...127).contains(b): return false  // shared address space (CGNAT)
        case 169 where b == 254: return false               // link-local (cloud metadata lives here)
        case 172 where (16...31).contains(b): return false   // private
        case 192 where b == 168: return false                // private
        case 192 where b == 0 && address[2] == 0: return false  // IETF protocol assignments
        case 198 where b == 18 || b == 19: return false      // benchmarking
        case 224...255: return false                         // multicast, reserved, broadcast
        default: return true
        }
    }

    private static func isPublicIPv6(_ address: [UInt8]) -> Bool {
        if address.allSatisfy({ $0 == 0 }) { return false }                        // ::
        if address[0..<15].allSatisfy({ $0 == 0 }) && address[15] == 1 { return false }  // ::1
        if address[0] & 0xFE == 0xFC { return false }                               // fc00::/7 unique local
        if address[0] == 0xFE && address[1] & 0xC0 == 0x80 { return false }         // fe80::/10 link-local
        if address[0] == 0xFE && address[1] & 0xC0 == 0xC0 { return false }         // fec0::/10 site-local
        if address[0] == 0xFF { return false }                                      // multicast
        if address[0] == 0x20 && address[1] == 0x01 && address[2] == 0x0D && address[3] == 0xB8 { return false }  // documentation
        if address[0] == 0x00 && address[1] == 0x64 && address[2] == 0xFF && address[3] == 0x9B {  // NAT64: judge the IPv4
            return isPublic(Array(address[12...15]))
        }
        return true
    }
}
