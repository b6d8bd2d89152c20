import Foundation
import Testing
import TestSupport
import OpenMarketCore
@testable import AdminPanel

/// The snapshot's shortcuts (search bytes, filter rows, folded sort keys) against the plain
/// definitions they replace: `String.contains` on each search key, `Filter.keeps` on each
/// product, `CatalogOrdering.areInOrder`. Same pages, same counts, for every view tried.
@Suite struct CatalogSearchIndexTests {
    private typealias Q = CatalogQueryTests

    /// Names where bytes and characters part ways: decomposed accents, compatibility letters,
    /// Hangul syllables next to lone jamo, emoji sequences, case folding that changes length.
    static let trickyNames = [
        "무선 키보드", "Café", "Cafe\u{301} au lait", "e", "\u{212A}elvin", "Kelvin", "각", "가\u{11A8}", "\u{1100}\u{1161}",
        "가족 👩‍👩‍👧", "👩 혼자", "ǅungla", "Straße", "ＡＢＣ", "abc", "a\u{0}b", "İstanbul", "ﬁle", "file", "🇰🇷 국기", "🇰",
        "e\u{301}\u{302}", "x\u{200D}y", "가가가", "ᄀ", "Ω ohm", "\u{2126} ohm",
    ]
    static let trickySearches = [
        "cafe", "café", "cafe\u{301}", "e", "\u{301}", "k", "\u{212A}", "kelvin", "가", "각", "\u{11A8}", "\u{1100}",
        "가족", "👩", "👩‍👩‍👧", "ss", "straße", "abc", "ＡＢＣ", "a", "b", "\u{0}", "i̇stanbul", "istanbul", "fi", "ﬁ",
        "🇰🇷", "🇰", "\u{200D}", "y", "가가", "ω", "Ω", "무선키보드", "선 키", "%", "z",
    ]

    @Test func searchFindsWhatStringContainsFinds() {
        let products = Self.trickyNames.enumerated().map { index, name in
            Q.product(index + 1, name: name, vendorName: index % 3 == 0 ? "가게 \(name)" : nil)
        }
        let snapshot = CatalogSnapshot(products)
        for search in Self.trickySearches {
            let query = Q.query(["q": search, "sort": "oldest", "per_page": "100"])
            let key = CatalogProduct.searchKey(query.search)
            let expected = products.filter { key.isEmpty || $0.searchKey.contains(key) }.map(\.id)
            #expect(snapshot.page(query, ownVendorID: 1).products.map(\.id) == expected, "search \(search.debugDescription)")
        }
    }

    @Test func theByteShortcutIsTakenOnlyForPlainText() {
        #expect(CatalogSearchIndex.isBytewise("무선키보드abc-1"))
        #expect(CatalogSearchIndex.isBytewise("東京"))
        #expect(!CatalogSearchIndex.isBytewise("cafe\u{301}"))      // not NFC
        #expect(!CatalogSearchIndex.isBytewise("\u{212A}"))          // not NFC (a Kelvin sign is a K)
        #expect(!CatalogSearchIndex.isBytewise("가\u{11A8}"))        // NFC composes it: 각
        #expect(!CatalogSearchIndex.isBytewise("👩‍👩‍👧"))            // one character, five scalars
        #expect(!CatalogSearchIndex.isBytewise("🇰🇷"))
    }

    /// Every sort and filter on a few hundred made-up products: the same pages as the plain definitions.
    @Test func viewsMatchThePlainDefinitions() {
        var random = SeededRandom(seed: 26)
        let names = ["apple", "Apple", "banana", "무선 키보드", "유선 마우스", "Cherry", "cherry", "Zebra", "é", "e\u{301}"]
        let products = (1...300).map { id in
            Q.product(id, name: names[random.next(names.count)] + (random.next(3) == 0 ? " \(id % 7)" : ""),
                      vendor: 1 + random.next(3), vendorName: random.next(2) == 0 ? "가게\(random.next(4))" : nil,
                      price: Double(1_000 * (1 + random.next(20))), discount: random.next(3) == 0 ? 500 : 0,
                      stock: random.next(4) == 0 ? 0 : random.next(50), currency: random.next(4) == 0 ? .USD : .KRW,
                      issuedDay: Double(random.next(5)), changed: Double(random.next(1_000)))
        }
        let snapshot = CatalogSnapshot(products.shuffled(using: &random))
        let shuffled = snapshot.products
        for sort in CatalogSort.allCases {
            for filters in [[:], ["show": "mine"], ["stock": "in-stock"], ["stock": "sold-out", "discounted": "1"],
                            ["currency": "USD"], ["q": "apple"], ["q": "가게1", "show": "mine"], ["q": "e"],
                            ["q": "키보드", "stock": "in-stock", "currency": "KRW"]] as [[String: String]] {
                var items = filters
                items["sort"] = sort.rawValue
                items["per_page"] = "50"
                items["page"] = "2"
                let query = Q.query(items)
                let filter = CatalogOrdering.Filter(query, ownVendorID: 2)
                let expected = shuffled.sorted { CatalogOrdering.areInOrder($0, $1, by: sort) }.filter(filter.keeps)
                let page = snapshot.page(query, ownVendorID: 2)
                #expect(page.totalCount == expected.count, "\(items)")
                let window = Array(expected.dropFirst((page.pageNo - 1) * 50).prefix(50)).map(\.id)
                #expect(page.products.map(\.id) == window, "\(items)")
                #expect(snapshot.all(query, ownVendorID: 2).map { shuffled[Int($0)].id } == expected.map(\.id), "\(items)")
            }
        }
    }
}
