import Foundation
import Testing
@testable import AdminPanel

/// `CatalogQuery.encode`, written for speed, encodes exactly as RFC 3986 says for a query
/// component: unreserved ASCII kept, every other UTF-8 byte as %XX in capitals (Foundation's
/// `addingPercentEncoding` with the unreserved set is the reference).
@Suite struct CatalogQueryEncodingTests {
    @Test(arguments: [
        "", "plain-text_1.2~", "/products?page=1&sort=price&stock=in-stock&per_page=50", "무선 키보드", "a b+c%d",
        "100%", "\u{0}\u{1F}\u{7F}", "😀 é e\u{301}", "~-._", "?&=#/\\\"'<>", String(repeating: "가", count: 200),
    ])
    func encodesEveryByteButTheUnreserved(text: String) {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let expected = text.addingPercentEncoding(withAllowedCharacters: unreserved)
        #expect(Array(CatalogQuery.encode(text).utf8) == Array((expected ?? "").utf8))
    }
}
