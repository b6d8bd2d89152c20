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
        for allowed in ["8.8.8.8", "172.32.0.1", "172.15.255.255", "1.1.1.1", "203.0.113.200"] {
            #expect(ImageAddress.isPublic(Self.v4(allowed)), "\(allowed)")
        }
        for allowed in ["2606:4700::1111", "::ffff:8.8.8.8"] {
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

    @Test func answersAreReadWithoutFollowingRedirects() throws {
        let ok = Array("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcdef".utf8)
        #expect(try ImageFetcher.body(of: ok, maxBytes: 10) == Data("abc".utf8))
        let chunked = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n1\r\nc\r\n0\r\n\r\n".utf8)
        #expect(try ImageFetcher.body(of: chunked, maxBytes: 10) == Data("abc".utf8))
        let redirect = Array("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1/\r\n\r\n".utf8)
        #expect(throws: ImageFetcher.Failure.self) { try ImageFetcher.body(of: redirect, maxBytes: 10) }
        let big = Array("HTTP/1.1 200 OK\r\n\r\n".utf8) + [UInt8](repeating: 1, count: 11)
        #expect(throws: ImageFetcher.Failure.self) { try ImageFetcher.body(of: big, maxBytes: 10) }
    }
}
