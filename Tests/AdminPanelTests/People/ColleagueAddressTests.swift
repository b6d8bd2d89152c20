import Foundation
import Testing
@testable import AdminPanel

/// Invitation and setup links at an address colleagues can open: never 0.0.0.0, never the
/// loopback address the owner happened to use.
@Suite struct ColleagueAddressTests {
    @Test func aWildcardHostGivesTheLANAddress() {
        let interfaces = ["127.0.0.1", "172.17.0.1", "10.0.0.8", "192.168.0.23", "::1", "fe80::1"]
        for wildcard in ["0.0.0.0", "::", "[::]"] {
            #expect(ColleagueAddress.base(publicURL: nil, scheme: "https", bindHost: wildcard, port: 8443, interfaces: interfaces)
                    == "https://192.168.0.23:8443")
        }
    }

    @Test func lanAddressPrefersPrivateIPv4AndSkipsLoopbackAndLinkLocal() {
        #expect(ColleagueAddress.lanAddress(["127.0.0.1", "169.254.3.4", "10.1.2.3", "172.17.0.1"]) == "10.1.2.3")
        #expect(ColleagueAddress.lanAddress(["172.20.0.5", "203.0.113.9"]) == "172.20.0.5")
        #expect(ColleagueAddress.lanAddress(["::1", "fe80::2", "2001:db8::7"]) == "2001:db8::7")
        #expect(ColleagueAddress.lanAddress(["127.0.0.1", "::1"]) == nil)
        // No LAN at all: the loopback address still answers on this machine (never 0.0.0.0).
        #expect(ColleagueAddress.base(publicURL: nil, scheme: "http", bindHost: "0.0.0.0", port: 80, interfaces: ["127.0.0.1"])
                == "http://127.0.0.1:80")
        #expect(ColleagueAddress.base(publicURL: nil, scheme: "http", bindHost: "::", port: 9000, interfaces: ["2001:db8::7"])
                == "http://[2001:db8::7]:9000")
    }

    @Test func publicURLWinsAndAFixedHostIsKept() {
        #expect(ColleagueAddress.base(publicURL: URL(string: "https://panel.example/"), scheme: "http", bindHost: "0.0.0.0",
                                      port: 8443, interfaces: ["192.168.0.23"]) == "https://panel.example")
        #expect(ColleagueAddress.base(publicURL: nil, scheme: "https", bindHost: "192.168.1.40", port: 8443, interfaces: ["192.168.0.23"])
                == "https://192.168.1.40:8443")
        #expect(ColleagueAddress.base(publicURL: nil, scheme: "http", bindHost: "127.0.0.1", port: 8080, interfaces: ["192.168.0.23"])
                == "http://127.0.0.1:8080")
    }
}
