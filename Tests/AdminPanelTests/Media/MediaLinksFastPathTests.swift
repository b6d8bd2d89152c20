import Foundation
import Testing
@testable import AdminPanel

/// `panelPath` skips the URL parse for plain addresses on the API's origin; the answer must be
/// the parse's own (`parsedPanelPath`) for every input, hostile ones included.
@Suite struct MediaLinksFastPathTests {
    static let bases = ["http://127.0.0.1:8081", "http://localhost:8081", "https://api.example.com", "http://[::1]:9100",
                        "https://example.invalid", "http://s3.example.com:443", "https://s3.example.com:443",
                        "https://s3.example.com:0443", "https://s3.example.com:65536", "https://s3.example.com:",
                        "http://a..b", "https://-a.", "http://1.2.3.999:80", "http://LOCALHOST:8081", "http://localhost:08081"]
    static let tails = [
        "", "/", "//", "/a.png", "/media/3/a.png", "/images/x%20y.jpg", "/a%2", "/a%zz", "/a%", "/%41%62",
        "/a b.png", "/a\tb", "/a\nb", "/a\\b", "/a?x=1", "/a#f", "/a?x#y", "/a??", "/a##", "/é.png", "/%E2%82%A9",
        "/a\"b", "/a<b>", "/a{b}", "/a|b", "/a^b", "/a`b", "/a[b]", "/../secret", "/./a", "/a;b=c", "/a:b@c",
        "/~user/a+b,c!$&'()*", "/\0", "/a\u{7F}", "@evil.example/a.png", ":9999/a.png", ".evil.example/a.png",
        "/\u{301}a", "//evil.example/a.png", "/a/%2e%2e/b",
    ]
    static let others = ["not a url", "", "https://evil.example/a.png", "http://127.0.0.1:9999/a.png",
                         "https://127.0.0.1:8081/a.png", "HTTP://127.0.0.1:8081/a.png", "http://127.0.0.1:8081",
                         "https://s3.example.com/bucket/a.jpg", "http://127.0.0.1:08081/a.png", "javascript:alert(1)",
                         "https://s3.example.com/", "https://s3.example.com", "http://127.0.0.1:8081/", "https:///a.png",
                         "https://s3.example.com:/a.png", "https://s3.example.com:443/a.png", "http://localhost/a.png",
                         "http://127.0.0.1:8081:8081/a.png", "http://127.0.0.1:99999999999999999999/a.png"]

    @Test func sameAnswerAsTheFullParse() {
        for base in Self.bases {
            for linksBase in Self.bases {
                let links = MediaLinks(apiBaseURL: URL(string: linksBase)!,
                                       extraOrigins: [URL(string: "https://s3.example.com")!])
                for url in Self.tails.map({ base + $0 }) + Self.others {
                    #expect(links.panelPath(for: url) == links.parsedPanelPath(for: url), "\(linksBase) \(url)")
                }
            }
        }
    }

    @Test func plainAddressesStillMap() {
        let links = MediaLinks(apiBaseURL: URL(string: "http://127.0.0.1:8081")!)
        #expect(links.panelPath(for: "http://127.0.0.1:8081/media/3/a.png") == "/media/media/3/a.png")
    }
}
