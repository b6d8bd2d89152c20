import Foundation
import Testing
@testable import AdminPanel

/// The host and origin decisions (docs/lan-console.md, "The names it answers to"), without a server.
@Suite struct HostAllowListTests {
    @Test func loopbackAnswersOnlyToLoopbackNamesOnItsPort() throws {
        let list = try HostAllowList(bindHost: "127.0.0.1", allowedHosts: [], interfaces: ["192.168.1.20"], hostName: "office-pc")
        for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080"] {
            #expect(list.allows(host: host, port: 8080), "\(host)")
        }
        for host in ["127.0.0.1:8081", "evil.example:8080", "192.168.1.20:8080", "office-pc:8080", "localhost",
                     "127.0.0.1", "localhost:8080:1", "::1:8080", "[::1", "", "user@localhost:8080", "localhost:+8080",
                     "localhost.:8080", "127.0.0.1:08080x", "localhost:", ":8080", "localhost:０８０８０",
                     "localhost:8080\u{301}", "localhost:\u{301}8080", "localhost:80800", "localhost:0"] {
            #expect(!list.allows(host: host, port: 8080), "\(host)")
        }
    }

    @Test func beyondLoopbackAddsInterfacesAndHostNames() throws {
        let list = try HostAllowList(bindHost: "0.0.0.0", allowedHosts: [], interfaces: ["192.168.1.20", "fd00::5"],
                                     hostName: "Office-PC")
        for host in ["192.168.1.20:9000", "[fd00::5]:9000", "office-pc:9000", "office-pc.local:9000", "localhost:9000"] {
            #expect(list.allows(host: host, port: 9000), "\(host)")
        }
        #expect(!list.allows(host: "192.168.1.21:9000", port: 9000))
        #expect(!list.allows(host: "office-pc.evil.example:9000", port: 9000))
        #expect(list.certificateAddresses.contains("192.168.1.20") && list.certificateAddresses.contains("fd00::5"))
        #expect(list.certificateDNSNames.contains("office-pc.local") && !list.certificateDNSNames.contains("192.168.1.20"))
    }

    @Test func allowedHostsWithAndWithoutPort() throws {
        let list = try HostAllowList(bindHost: "127.0.0.1", allowedHosts: ["Panel.Example", "proxy.example:8443"],
                                     interfaces: [], hostName: "")
        #expect(list.allows(host: "panel.example:8080", port: 8080))
        #expect(list.allows(host: "panel.example", port: 8080))
        #expect(!list.allows(host: "panel.example:9999", port: 8080))
        #expect(list.allows(host: "proxy.example:8443", port: 8080))
        #expect(!list.allows(host: "proxy.example:8080", port: 8080))
        #expect(!list.allows(host: "proxy.example", port: 8080))
        #expect(list.names(port: 8080).contains("panel.example"))
    }

    @Test func badAllowedHostIsRefused() {
        for bad in ["http://x.example", "a b", "x.example:0", "x.example:70000", "x.example:port", "a:b:c"] {
            #expect(throws: HostAllowList.Problem.self, "\(bad)") {
                _ = try HostAllowList(bindHost: "127.0.0.1", allowedHosts: [bad], interfaces: [], hostName: "")
            }
        }
    }

    @Test func originMustBeOneOfTheOwnNamesNeverTheRequestsHost() throws {
        let list = try HostAllowList(bindHost: "127.0.0.1", allowedHosts: [], interfaces: [], hostName: "")
        #expect(list.allows(origin: "http://127.0.0.1:8080", port: 8080))
        #expect(list.allows(origin: "https://localhost:8080", port: 8080))
        #expect(list.allows(origin: "http://[::1]:8080", port: 8080))
        for origin in ["null", "http://evil.example:8080", "http://127.0.0.1:8081", "ftp://127.0.0.1:8080",
                       "http://127.0.0.1:8080/path", "127.0.0.1:8080", "http://", ""] {
            #expect(!list.allows(origin: origin, port: 8080), "\(origin)")
        }
    }

    @Test func anHTTPSPanelHasNoPlainHTTPOrigin() throws {
        let list = try HostAllowList(bindHost: "127.0.0.1", allowedHosts: [], interfaces: [], hostName: "")
        #expect(list.allows(origin: "https://127.0.0.1:8443", port: 8443, servesHTTPS: true))
        #expect(!list.allows(origin: "http://127.0.0.1:8443", port: 8443, servesHTTPS: true))
        #expect(list.allows(origin: "https://127.0.0.1:8080", port: 8080, servesHTTPS: false))   // a TLS proxy in front
    }

    @Test func launchOptionsCollectRepeatedAllowedHosts() throws {
        let options = try LaunchOptions.parse(["--allowed-host", "a.example", "--allowed-host=b.example:9000"], environment: [:])
        #expect(options.allowedHosts == ["a.example", "b.example:9000"])
        let fromEnvironment = try LaunchOptions.parse([], environment: ["OPENMARKET_ALLOWED_HOSTS": "c.example, d.example"])
        #expect(fromEnvironment.allowedHosts == ["c.example", "d.example"])
        #expect(throws: LaunchOptions.Problem.self) { _ = try LaunchOptions.parse(["--allowed-host", "http://x"], environment: [:]) }
        #expect(throws: LaunchOptions.Problem.self) { _ = try LaunchOptions.parse(["--activity-days", "0"], environment: [:]) }
        #expect(try LaunchOptions.parse(["--activity-days", "30"], environment: [:]).activityDays == 30)
    }
}
