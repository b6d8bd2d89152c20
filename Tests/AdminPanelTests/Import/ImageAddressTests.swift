import Foundation
import Testing
@testable import AdminPanel

/// Which addresses an import may fetch photos from, as pure functions (no network in tests).
@Suite struct ImageAddressTests {
    static func v4(_ text: String) -> [UInt8] { text.split(separator: ".").map { UInt8($0)! } }
    static func v6(_ text: String) -> [UInt8] {
        var address = in6_addr()
        #expect(inet_pton(AF_INET6, text, &address) == 1)
        return withUnsafeBytes(of: address) { Array($0) }
    }

    @Test func privateLoopbackAndLinkLocalAreRefused() {
        for blocked in ["127.0.0.1", "127.8.9.10", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
                        "0.0.0.0", "100.64.0.1", "224.0.0.1", "255.255.255.255"] {
            #expect(!ImageAddress.isPublic(Self.v4(blocked)), "\(blocked)")
        }
        for blocked in ["::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.1.2.3",
                        "64:ff9b::a9fe:a9fe"] {
            #expect(!ImageAddress.isPublic(Self.v6(blocked)), "\(blocked)")
        }
    }

    @Test func publicAddressesAreAllowed() {
        for allowed in ["8.8.8.8", "172.32.0.1", "172.15.255.255", "1.1.1.1", "203.0.114.1", "198.51.101.1", "192.0.3.1",
                        "198.20.0.1", "198.17.255.255", "223.255.255.254"] {
            #expect(ImageAddress.isPublic(Self.v4(allowed)), "\(allowed)")
        }
        for allowed in ["2606:4700::1111", "::ffff:8.8.8.8", "2002:0808:0808::1", "64:ff9b::808:808", "2001:db9::1",
                        "2001:0:4136:e378:8000:63bf:f7f7:f7f7"] {
            #expect(ImageAddress.isPublic(Self.v6(allowed)), "\(allowed)")
        }
    }

    @Test func theAPIsOwnOriginAndMediaOriginsMayBeLocal() throws {
        let api = URL(string: "http://127.0.0.1:8081")!
        let media = URL(string: "https://cdn.lan")!
        let loopback = Self.v4("127.0.0.1")
        #expect(ImageAddress.isAllowed(loopback, url: URL(string: "http://127.0.0.1:8081/media/a.jpg")!, trustedOrigins: [api, media]))
        #expect(ImageAddress.isAllowed(Self.v4("10.0.0.5"), url: URL(string: "https://CDN.lan/x.png")!, trustedOrigins: [api, media]))
        // Another port of the same host is another origin.
        #expect(!ImageAddress.isAllowed(loopback, url: URL(string: "http://127.0.0.1:8080/x.jpg")!, trustedOrigins: [api, media]))
        #expect(!ImageAddress.isAllowed(loopback, url: URL(string: "http://evil.example/x.jpg")!, trustedOrigins: [api]))
    }

    @Test func onlyHTTPAndHTTPSURLsWithoutCredentials() {
        #expect(ImageAddress.webURL("https://example.com/a.jpg") != nil)
        #expect(ImageAddress.webURL("http://example.com:8080/a.jpg?x=1") != nil)
        #expect(ImageAddress.webURL("ftp://example.com/a.jpg") == nil)
        #expect(ImageAddress.webURL("file:///etc/passwd") == nil)
        #expect(ImageAddress.webURL("javascript:alert(1)") == nil)
        #expect(ImageAddress.webURL("http://user:pw@example.com/a.jpg") == nil)
        #expect(ImageAddress.webURL("photo.jpg") == nil)
    }

    /// The ranges no photo lives in: documentation, benchmarking, reserved and broadcast.
    @Test func documentationBenchmarkingReservedAndBroadcastAreRefused() {
        for blocked in ["192.0.2.1", "198.51.100.7", "203.0.113.200", "198.18.0.1", "198.19.255.255", "240.0.0.1",
                        "250.1.2.3", "255.255.255.255", "192.0.0.8"] {
            #expect(!ImageAddress.isPublic(Self.v4(blocked)), "\(blocked)")
        }
        for blocked in ["2001:db8::1", "2001:db8:ffff::ffff", "100::1"] {
            #expect(!ImageAddress.isPublic(Self.v6(blocked)), "\(blocked)")
        }
    }

    /// IPv6 forms that carry an IPv4 address are judged by it: 6to4 (2002::/16, the address in
    /// bytes 2–5), Teredo (2001::/32: the server in bytes 4–7, the client inverted in 12–15), NAT64
    /// (64:ff9b::/96, the last four bytes) and its local-use prefix, IPv4-compatible.
    @Test func ipv6FormsOfPrivateIPv4AddressesAreRefused() {
        for blocked in ["2002:7f00:0001::1", "2002:0a00:0001:1::5", "2002:a9fe:a9fe::", "2002:c0a8:0101::1",
                        // Teredo: server 127.0.0.1, or a client of 10.0.0.1 (inverted f5ff:fffe) behind a public server.
                        "2001:0:7f00:1::1", "2001:0:4136:e378:8000:63bf:f5ff:fffe", "2001:0:c000:0201:0:0:0808:0808",
                        "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b::c0a8:101", "64:ff9b:1::808:808",
                        "::127.0.0.1", "::10.0.0.1", "::ffff:192.0.2.1", "::ffff:169.254.169.254"] {
            #expect(!ImageAddress.isPublic(Self.v6(blocked)), "\(blocked)")
        }
    }

    @Test func addressesOfOtherLengthsAreRefused() {
        #expect(!ImageAddress.isPublic([]))
        #expect(!ImageAddress.isPublic([8, 8, 8]))
        #expect(!ImageAddress.isPublic([UInt8](repeating: 8, count: 5)))
    }
}
