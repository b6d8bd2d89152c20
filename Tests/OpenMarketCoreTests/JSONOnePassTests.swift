import Foundation
import Testing
@testable import OpenMarketCore

/// The reader checks a document and records where every object's members lie in one pass, and
/// crosses string text eight bytes at a time. Both must answer exactly as the byte-at-a-time
/// lexer (`JSONCursor.skipValue`, `JSONValue.parse`) and Foundation's `JSONSerialization` do.
@Suite struct JSONOnePassTests {
    private typealias Edge = EdgeCaseDecodingTests

    /// Text with each byte that needs a look of its own at every place of the first words.
    private static var awkwardStrings: [String] {
        let specials = ["\\\"", "\\\\", "\\n", "\\u00e9", "\\ud55c", "\\ud83d\\ude00", "한", "é", "<", "&"]
        var texts: [String] = []
        for length in 0...20 {
            for special in specials {
                for position in stride(from: 0, through: length, by: 3) {
                    let plain = String(repeating: "a", count: length)
                    let index = plain.index(plain.startIndex, offsetBy: position)
                    texts.append(String(plain[..<index]) + special + String(plain[index...]))
                }
            }
        }
        return texts
    }

    @Test func stringsDecodeAsFoundationDecodesThem() throws {
        for text in Self.awkwardStrings {
            let json = "[\"" + text + "\"]"
            let foundation = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
            guard case .array(let list) = try JSONValue.parse(Data(json.utf8)), case .string(let ours)? = list.first else {
                Issue.record("expected a list with a string for \(json)")
                continue
            }
            #expect(ours == foundation?.first, "\(json)")
            // The same text as a product's name, read by the model reader.
            let page = try OpenMarketJSON.decodeListPage(Edge.v2aPage([Edge.item(["name": "\"" + text + "\""])]))
            #expect(page.pages.first?.name == foundation?.first, "\(json)")
        }
    }

    @Test func controlBytesInStringsAreRefusedWherever() {
        for length in 0...20 {
            for position in 0...length {
                var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                bytes.insert(0x1F, at: position)
                let json = Data(#"{"x": ""#.utf8) + Data(bytes) + Data(#""}"#.utf8)
                #expect((try? JSONValue.parse(json)) == nil)
                #expect(syntaxVerdict(json) == false)
                #expect((try? JSONSerialization.jsonObject(with: json)) == nil)
            }
        }
    }

    /// Every cut of a page with nested objects, escapes and Korean text is refused as syntax,
    /// and the whole page is read.
    @Test func everyTruncationIsASyntaxError() throws {
        let items = [
            Edge.item(["name": #""제주 감귤 \"특품\" 5kg""#, "meta": #"{"a": {"b": [1, {"c": "d"}]}, "e": []}"#], id: 1),
            Edge.item(["description": #""Tom & Jerry \u00e9\ud55c 상품 설명""#], id: 2),
        ]
        let page = Edge.v2aPage(items)
        let read = try OpenMarketJSON.decodeListPage(page)
        #expect(read.pages.map(\.id) == [1, 2] && read.pages[0].name == "제주 감귤 \"특품\" 5kg")
        #expect(read.pages[1].description == "Tom & Jerry é한 상품 설명")
        for length in 0..<page.count {
            let cut = page.prefix(length)
            do {
                _ = try OpenMarketJSON.decodeListPage(cut)
                Issue.record("a page cut at \(length) bytes was read")
            } catch {
                #expect(error == .undecodable(path: "", reason: "the answer is not valid JSON"), "cut at \(length)")
            }
        }
    }

    /// Nesting at the limit and one past it, inside a list of objects and inside an object:
    /// the same verdict as the byte-at-a-time lexer's.
    @Test func depthLimitIsTheLexers() {
        for depth in (JSONCursor.maxDepth - 3)...(JSONCursor.maxDepth + 1) {
            let lists = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let objects = String(repeating: #"{"k": "#, count: depth) + "1" + String(repeating: "}", count: depth)
            for inner in [lists, objects, "[" + objects + "]"] {
                for document in [#"{"x": "# + inner + "}", #"{"pages": [{"id": 1, "x": "# + inner + "}]}"] {
                    let data = Data(document.utf8)
                    #expect(syntaxVerdict(data) == lexerVerdict(data), "depth \(depth): \(document.prefix(40))")
                }
            }
        }
    }

    @Test func hugeNumbersInNestedObjectsStayTheProductsProblem() throws {
        let page = try OpenMarketJSON.decodeListPage(Edge.v2aPage([
            Edge.item(["meta": #"{"n": 1e999, "m": -123456789012345678901234567890}"#], id: 1),
            Edge.item(["price": "1e999"], id: 2),
        ]))
        #expect(page.pages.map(\.id) == [1])
        #expect(page.unreadable == [UnreadableProduct(id: 2, field: "price", reason: "a number beyond any amount")])
    }

    /// Whether the reader takes `data` as JSON (a model's complaint means it did).
    private func syntaxVerdict(_ data: Data) -> Bool {
        do {
            _ = try OpenMarketJSON.read(data) { (_: JSONObjectReader) throws(OpenMarketError) in () }
            return true
        } catch {
            return error != .undecodable(path: "", reason: "the answer is not valid JSON")
        }
    }

    /// The byte-at-a-time lexer's verdict on the whole document.
    private func lexerVerdict(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var cursor = JSONCursor(bytes: raw.bindMemory(to: UInt8.self), lenient: true)
            guard (try? cursor.skipValue(depth: 0)) != nil else { return false }
            cursor.skipWhitespace()
            return cursor.atEnd
        }
    }
}
