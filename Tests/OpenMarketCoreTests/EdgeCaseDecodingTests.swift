import Foundation
import Testing
@testable import OpenMarketCore

/// Hand-written answers: odd but legal shapes decode, broken ones name the key path.
@Suite struct EdgeCaseDecodingTests {
    /// A v2a list item; `overrides` replaces (or, with `nil`, removes) keys, so no key is duplicated.
    static func item(_ overrides: KeyValuePairs<String, String?> = [:], id: Int = 1) -> String {
        var fields: [(String, String?)] = [
            ("id", "\(id)"), ("vendor_id", "7"), ("name", #""Mug""#), ("thumbnail", "\"http://h/t/\(id)\""),
            ("currency", #""USD""#), ("price", "12.5"), ("bargain_price", "10.0"), ("discounted_price", "2.5"),
            ("stock", "4"), ("created_at", #""2022-01-04T00:00:00.00""#), ("issued_at", #""2022-11-16T00:00:00""#),
        ]
        for (key, value) in overrides {
            if let index = fields.firstIndex(where: { $0.0 == key }) { fields[index].1 = value } else { fields.append((key, value)) }
        }
        let members = fields.compactMap { key, value in value.map { "\"\(key)\": \($0)" } }
        return "{" + members.joined(separator: ", ") + "}"
    }

    static func v2aPage(_ items: [String]) -> Data {
        Data("""
        {"page_no": 2, "items_per_page": 10, "total_count": 12, "offset": 10, "limit": 20,
         "last_page": 2, "has_next": false, "has_prev": true, "pages": [\(items.joined(separator: ","))]}
        """.utf8)
    }

    static func detail(_ overrides: String = "", images: String? = nil) -> Data {
        Data("""
        {"id": 9, "vendor_id": 7, "name": "Mug", "description": "A good mug", "thumbnail": "http://h/t",
         "currency": "KRW", "price": 6.0E7, "bargain_price": 5.0E7, "discounted_price": 1.0E7, "stock": 1,
         "created_at": "2022-01-04T00:00:00.00", "issued_at": "2022-01-04T00:00:00.00",
         "images": \(images ?? #"[{"id": 1, "url": "http://h/i/abc", "thumbnail_url": "http://h/t/abc"}]"#)\(overrides)}
        """.utf8)
    }

    private func undecodable(_ body: () throws(OpenMarketError) -> Void) -> (path: String, reason: String)? {
        do {
            try body()
            return nil
        } catch {
            if case .undecodable(let path, let reason) = error { return (path, reason) }
            Issue.record("expected .undecodable, got \(error)")
            return nil
        }
    }

    @Test func moneyInExponentFormAndAsIntegers() throws {
        let detail = try OpenMarketJSON.decodeDetail(Self.detail())
        #expect(detail.price == 60_000_000 && detail.bargainPrice == 50_000_000 && detail.discountedPrice == 10_000_000)
        let page = try OpenMarketJSON.decodeListPage(Self.v2aPage([Self.item(["price": "50000"])]))
        #expect(page.pages[0].price == 50_000)
        #expect(page.pages[0].discountedPrice == 2.5)
    }

    @Test func unknownKeysAreIgnoredAndOptionalFieldsMayBeMissing() throws {
        let page = try OpenMarketJSON.decodeListPage(Self.v2aPage([Self.item(["colour": #""red""#, "tags": #"[1, {"x": null}]"#])]))
        #expect(page.pages[0].name == "Mug")
        #expect(page.pages[0].vendorName == nil && page.pages[0].description == nil)
        // Image without succeed/issued_at, detail without vendors, URL without extension.
        let detail = try OpenMarketJSON.decodeDetail(Self.detail(#", "extra": {"nested": true}"#))
        #expect(detail.vendor == nil)
        #expect(detail.images == [ProductImage(id: 1, url: "http://h/i/abc", thumbnailURL: "http://h/t/abc")])
    }

    @Test func mixedDateFormatsInOneAnswer() throws {
        let item = try OpenMarketJSON.decodeListPage(Self.v2aPage([Self.item()])).pages[0]
        #expect(item.createdAt == utcDay(2022, 1, 4))
        #expect(item.issuedAt == utcDay(2022, 11, 16))
    }

    @Test func missingOrNullDetailDescriptionIsEmpty() throws {
        let withNull = Data(String(decoding: Self.detail(), as: UTF8.self)
            .replacingOccurrences(of: #""description": "A good mug""#, with: #""description": null"#).utf8)
        #expect(try OpenMarketJSON.decodeDetail(withNull).description == "")
        let without = Data(String(decoding: Self.detail(), as: UTF8.self)
            .replacingOccurrences(of: #""description": "A good mug","#, with: "").utf8)
        #expect(try OpenMarketJSON.decodeDetail(without).description == "")
    }

    @Test func aWholeNumberWrittenAsDoubleIsAcceptedForIntegers() throws {
        let page = try OpenMarketJSON.decodeListPage(Self.v2aPage([Self.item(["stock": "3.0"])]))
        #expect(page.pages[0].stock == 3)
    }

    // One unreadable product in a list never fails the page: it becomes a placeholder naming
    // its id and the member that could not be read, and the others are read as usual.

    @Test func aFractionalStockNamesItsField() throws {
        let page = try OpenMarketJSON.decodeListPage(Self.v2aPage([Self.item(), Self.item(["stock": "2.5"], id: 2)]))
        #expect(page.pages.count == 1)
        #expect(page.unreadable == [UnreadableProduct(id: 2, field: "stock", reason: "expected a whole number, found 2.5")])
    }

    @Test func aWrongTypeNamesItsField() throws {
        let page = try OpenMarketJSON.decodeListPage(Self.v2aPage([Self.item(), Self.item(), Self.item(),
                                                                   Self.item(["price": #""cheap""#], id: 4)]))
        #expect(page.pages.count == 3)
        #expect(page.unreadable == [UnreadableProduct(id: 4, field: "price", reason: "expected a number")])
    }

    @Test func aMissingKeyNamesItsField() throws {
        let page = try OpenMarketJSON.decodeListPage(Self.v2aPage([Self.item(["thumbnail": nil])]))
        #expect(page.pages.isEmpty)
        #expect(page.unreadable.first?.field == "thumbnail")
        #expect(page.unreadable.first?.reason == "missing")
    }

    @Test func hostileValuesMakeOnlyTheirProductUnreadable() throws {
        let odd: [(String, String)] = [
            ("price", "1e400"), ("price", "-1e400"), ("stock", "99999999999999999999"), ("name", "12"),
            ("stock", "1.5"), ("created_at", #""2022-13-45""#), ("id", #""seven""#), ("currency", "null"),
            ("name", #""\ud800 lone""#),
        ]
        let items = [Self.item()] + odd.enumerated().map { Self.item([$1.0: $1.1], id: $0 + 10) } + ["null", "[]", "7"]
        let page = try OpenMarketJSON.decodeListPage(Self.v2aPage(items))
        // The lone surrogate is repaired (U+FFFD), not refused: that product is readable.
        #expect(page.pages.count == 2)
        #expect(page.pages.contains { $0.name.contains("\u{FFFD}") })
        #expect(page.unreadable.count == odd.count - 1 + 3)
        #expect(page.unreadable.filter { $0.id == nil }.count == 4)
        #expect(page.unreadable.contains(UnreadableProduct(id: 10, field: "price", reason: "a number beyond any amount")))
    }

    @Test func aMissingImageURLNamesItsPath() {
        let failure = undecodable { () throws(OpenMarketError) in
            _ = try OpenMarketJSON.decodeDetail(Self.detail(images: #"[{"id": 1, "url": "u", "thumbnail_url": "t"}, {"id": 2, "thumbnail_url": "t"}]"#))
        }
        #expect(failure?.path == "images[1].url")
    }

    @Test func aMissingV2bPageKeyIsNamedInCamelCase() {
        let body = Data(#"{"pageNo": 1, "itemsPerPage": 3, "offset": 0, "limit": 3, "lastPage": 1, "hasNext": false, "hasPrev": false, "pages": []}"#.utf8)
        let failure = undecodable { () throws(OpenMarketError) in _ = try OpenMarketJSON.decodeListPage(body) }
        #expect(failure?.path == "totalCount")
    }

    @Test func aMissingV2aPageKeyIsNamedInSnakeCase() {
        let body = Data(#"{"page_no": 1, "items_per_page": 3, "total_count": 0, "offset": 0, "limit": 3, "last_page": 0, "has_next": false, "pages": []}"#.utf8)
        let failure = undecodable { () throws(OpenMarketError) in _ = try OpenMarketJSON.decodeListPage(body) }
        #expect(failure?.path == "has_prev")
    }

    @Test func aBadDateNamesItsPath() {
        let failure = undecodable { () throws(OpenMarketError) in
            _ = try OpenMarketJSON.decodeDetail(Self.detail(#", "vendors": {"id": 1, "name": "v", "created_at": "yesterday"}"#))
        }
        #expect(failure?.path == "vendors.created_at")
        #expect(failure?.reason.contains("yesterday") == true)
    }

    @Test func anUnknownCurrencyNamesItsField() throws {
        let page = try OpenMarketJSON.decodeListPage(Self.v2aPage([Self.item(["currency": #""JPY""#])]))
        #expect(page.unreadable.first?.field == "currency")
    }

    @Test func nullWhereAValueIsRequired() throws {
        let page = try OpenMarketJSON.decodeListPage(Self.v2aPage([Self.item(["name": "null"])]))
        #expect(page.unreadable.first?.field == "name")
        // In a detail the same value fails the answer, naming the path.
        let failure = undecodable { () throws(OpenMarketError) in
            _ = try OpenMarketJSON.decodeDetail(Data(String(decoding: Self.detail(), as: UTF8.self)
                .replacingOccurrences(of: #""name": "Mug""#, with: #""name": null"#).utf8))
        }
        #expect(failure?.path == "name")
    }

    @Test(arguments: ["", "not json", "[1, 2]", "<html>Bad Gateway</html>", "{\"page_no\": 1"])
    func notAnAnswerAtAll(body: String) {
        let failure = undecodable { () throws(OpenMarketError) in _ = try OpenMarketJSON.decodeListPage(Data(body.utf8)) }
        #expect(failure != nil)
        if body != "[1, 2]" { #expect(failure?.path == "") }
    }
}
