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

    /// Not loopback, private, link-local, shared (CGNAT), documentation, benchmarking, multicast,
    /// unspecified, reserved or broadcast. `address` is 4 bytes (IPv4) or 16 (IPv6). IPv6 forms
    /// that carry an IPv4 address (mapped, compatible, 6to4, Teredo, NAT64) are judged by the
    /// IPv4 address inside, since a relay or translator would deliver to it.
    static func isPublic(_ address: [UInt8]) -> Bool {
        switch address.count {
        case 4: isPublicIPv4(address)
        case 16: isPublicIPv6(address)
        default: false
        }
    }

    private static func isPublicIPv4(_ address: [UInt8]) -> Bool {
        let (a, b, c) = (address[0], address[1], address[2])
        switch a {
        case 0, 10, 127: return false                           // this network, private, loopback
        case 100 where (64...127).contains(b): return false     // shared address space (CGNAT)
        case 169 where b == 254: return false                   // link-local (cloud metadata lives here)
        case 172 where (16...31).contains(b): return false      // private
        case 192 where b == 168: return false                   // private
        case 192 where b == 0 && (c == 0 || c == 2): return false  // IETF protocol assignments, documentation
        case 198 where b == 18 || b == 19: return false         // benchmarking
        case 198 where b == 51 && c == 100: return false        // documentation
        case 203 where b == 0 && c == 113: return false         // documentation
        case 224...255: return false                            // multicast, reserved, broadcast
        default: return true
        }
    }

    private static func isPublicIPv6(_ address: [UInt8]) -> Bool {
        let embedded = Array(address[12...15])
        if address[0..<10].allSatisfy({ $0 == 0 }) && address[10] == 0xFF && address[11] == 0xFF {
            return isPublicIPv4(embedded)                                           // ::ffff:a.b.c.d mapped
        }
        if address[0..<12].allSatisfy({ $0 == 0 }) { return isPublicIPv4(embedded) }  // ::, ::1, ::a.b.c.d compatible
        if address[0] & 0xFE == 0xFC { return false }                               // fc00::/7 unique local
        if address[0] == 0xFE && address[1] & 0xC0 == 0x80 { return false }         // fe80::/10 link-local
        if address[0] == 0xFE && address[1] & 0xC0 == 0xC0 { return false }         // fec0::/10 site-local
        if address[0] == 0xFF { return false }                                      // multicast
        if address[0...3] == [0x20, 0x01, 0x0D, 0xB8] { return false }              // 2001:db8::/32 documentation
        if address[0...1] == [0x01, 0x00] && address[2..<8].allSatisfy({ $0 == 0 }) { return false }  // 100::/64 discard
        if address[0...1] == [0x20, 0x02] { return isPublicIPv4(Array(address[2...5])) }  // 2002::/16 6to4
        if address[0...3] == [0x20, 0x01, 0x00, 0x00] {                             // 2001::/32 Teredo: server, client (inverted)
            return isPublicIPv4(Array(address[4...7])) && isPublicIPv4(embedded.map { ~$0 })
        }
        if address[0...3] == [0x00, 0x64, 0xFF, 0x9B] {
            if address[4...5] == [0x00, 0x01] { return false }                      // 64:ff9b:1::/48 local-use translation
            if address[4..<12].allSatisfy({ $0 == 0 }) { return isPublicIPv4(embedded) }  // 64:ff9b::/96 NAT64
        }
        return true
    }
}
