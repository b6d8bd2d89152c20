import Foundation
import Testing
@testable import OpenMarketCore

/// The models read straight from the answer's bytes: what a tree of the whole answer used to
/// settle (duplicate keys, escaped keys, a syntax error behind a model error, nested paths) must
/// come out the same.
@Suite struct JSONObjectReaderTests {
    private typealias Edge = EdgeCaseDecodingTests

    private func failure<T>(_ body: () throws(OpenMarketError) -> T) -> (path: String, reason: String)? {
        do {
            _ = try body()
            Issue.record("expected an error")
            return nil
        } catch {
            guard case .undecodable(let path, let reason) = error else {
                Issue.record("expected .undecodable, got \(error)")
                return nil
            }
            return (path, reason)
        }
    }

    @Test func duplicateKeysKeepTheFirstValue() throws {
        let page = try OpenMarketJSON.decodeListPage(Edge.v2aPage([
            Edge.item(["price": #"5, "price": "not a number""#]),
        ]))
        #expect(page.pages.map(\.price) == [5])
        // The first spelling is also the one whose error counts, wherever the later one is.
        let broken = try OpenMarketJSON.decodeListPage(Edge.v2aPage([Edge.item(["stock": #""x", "stock": 3"#])]))
        #expect(broken.unreadable == [UnreadableProduct(id: 1, field: "stock", reason: "expected a number")])
    }

    @Test func escapedAndNonASCIIKeysAreReadByTheirText() throws {
        let page = try OpenMarketJSON.decodeListPage(Edge.v2aPage([
            Edge.item(["price": nil, #"pr\u0069ce"#: "7.5"]),
            Edge.item(["id": nil, #"i\u0064"#: "8", "name": "5"]),
        ]))
        #expect(page.pages.map(\.price) == [7.5])
        // An unreadable product is still named by an id whose key was escaped.
        #expect(page.unreadable == [UnreadableProduct(id: 8, field: "name", reason: "expected a string")])
        // A key that only looks like one (full-width letters) is another key.
        let other = try OpenMarketJSON.decodeListPage(Edge.v2aPage([Edge.item(["id": nil, "\u{FF49}\u{FF44}": "3"])]))
        #expect(other.unreadable == [UnreadableProduct(id: nil, field: "id", reason: "missing")])
    }

    @Test func escapedValuesDecodeLikeTheirText() throws {
        let page = try OpenMarketJSON.decodeListPage(Edge.v2aPage([
            Edge.item(["currency": #""\u0055SD""#, "created_at": #""2022\u002d01-04T00:00:00.00""#, "name": #""a\"b\u00e9""#]),
        ]))
        let item = try #require(page.pages.first)
        #expect(item.currency == .USD && item.name == "a\"bé")
        #expect(item.createdAt == OpenMarketJSON.parseDate("2022-01-04T00:00:00.00"))
        // Bytes other than exactly KRW or USD are judged by `Currency(rawValue:)`, as ever (it
        // compares strings canonically: a Kelvin sign may count as a K).
        let kelvin = try OpenMarketJSON.decodeListPage(Edge.v2aPage([Edge.item(["currency": "\"\u{212A}RW\""])]))
        if let expected = Currency(rawValue: "\u{212A}RW") {
            #expect(kelvin.pages.first?.currency == expected)
        } else {
            #expect(kelvin.unreadable.first?.field == "currency")
        }
    }

    @Test func aSyntaxErrorAnywhereWinsOverEveryModelError() {
        let answer = Data(#"{"page_no": null, "pages": [{"id": 1}], "extra": [1,]}"#.utf8)
        let syntax = failure { () throws(OpenMarketError) in try OpenMarketJSON.decodeListPage(answer) }
        #expect(syntax?.path == "" && syntax?.reason == "the answer is not valid JSON")
        // Deep nesting in a member no model reads is still refused as syntax, not a crash.
        let deep = Data(("{\"x\": " + String(repeating: "[", count: 5_000) + "}").utf8)
        #expect(failure { () throws(OpenMarketError) in try OpenMarketJSON.decodeDetail(deep) }?.path == "")
        let nested = Data(("{\"x\": " + String(repeating: "[", count: 98) + String(repeating: "]", count: 98) + "}").utf8)
        #expect(failure { () throws(OpenMarketError) in try OpenMarketJSON.decodeDetail(nested) }?.path == "id")
    }

    @Test func nestedPathsNameTheElementAndMember() {
        let detail = Edge.detail(images: #"[{"id": 1, "url": "u", "thumbnail_url": "t"}, {"id": 2, "url": 5, "thumbnail_url": "t"}]"#)
        let image = failure { () throws(OpenMarketError) in try OpenMarketJSON.decodeDetail(detail) }
        #expect(image?.path == "images[1].url" && image?.reason == "expected a string")
        let v1 = Data(#"{"id": 1, "title": "t", "descriptions": "d", "price": 1, "currency": "KRW", "stock": 1, "thumbnails": ["a", 2], "images": [], "registration_date": 1.5}"#.utf8)
        #expect(failure { () throws(OpenMarketError) in try OpenMarketJSON.decodeV1Detail(v1) }?.path == "thumbnails[1]")
        // Through `JSONDecoder` the document's own path comes first.
        let list = Data(("[" + Edge.item() + "," + Edge.item(["price": #""x""#]) + "]").utf8)
        do {
            _ = try JSONDecoder().decode([ProductListItem].self, from: list)
            Issue.record("expected an error")
        } catch DecodingError.dataCorrupted(let context) {
            guard case .undecodable(let path, _)? = context.underlyingError as? OpenMarketError else {
                Issue.record("expected the reader's error, got \(context)")
                return
            }
            #expect(path == "[1].price")
        } catch {
            Issue.record("expected dataCorrupted, got \(error)")
        }
    }

    @Test func everyItemOfALargePageIsRead() throws {
        let items = (1...300).map { Edge.item(["name": "\"상품 \($0)\""], id: $0) }
        let page = try OpenMarketJSON.decodeListPage(Edge.v2aPage(items))
        #expect(page.pages.map(\.id) == Array(1...300))
        #expect(page.pages.last?.name == "상품 300")
    }

    /// The tree written back as JSON (the `Decodable` path) parses to the same tree.
    @Test func treesRoundTripThroughTheirJSON() throws {
        let text = #"{"a": [1, -2, 2.5, 1e300, "q\"\\\u0001é", true, false, null, {}], "b": {"c": []}}"#
        let tree = try JSONValue.parse(Data(text.utf8))
        let again = try JSONValue.parse(tree.jsonData)
        guard case .object(let members) = again, case .array(let list)? = members["a"],
              case .object(let b)? = members["b"], case .array(let c)? = b["c"], c.isEmpty else {
            Issue.record("expected the same shape")
            return
        }
        #expect(list.count == 9)
        if case .string(let text) = list[4] { #expect(text == "q\"\\\u{1}é") } else { Issue.record("expected a string") }
        if case .number(let big, nil) = list[3] { #expect(big == 1e300) } else { Issue.record("expected 1e300") }
        if case .number(_, let integer) = list[1] { #expect(integer == -2) } else { Issue.record("expected -2") }
    }
}
