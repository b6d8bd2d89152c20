import Foundation
import Testing
@testable import OpenMarketCore

/// The hand-written JSON reader: strict RFC 8259 syntax, and the same answers as the models'
/// `Decodable` path.
@Suite struct JSONParserTests {
    private func parse(_ text: String) -> JSONValue? { try? JSONValue.parse(Data(text.utf8)) }

    private func string(_ json: String) -> String? {
        if case .string(let text)? = parse(json) { return text }
        return nil
    }

    @Test func stringsWithEveryEscape() {
        #expect(string(#""plain 커피 😗""#) == "plain 커피 😗")
        #expect(string(#""q\" b\\ s\/ \b\f\n\r\t""#) == "q\" b\\ s/ \u{8}\u{C}\n\r\t")
        #expect(string(#""\u0041\u00e9\uAC00\ud83d\ude17""#) == "Aé가😗")
        #expect(string(#""\u0000""#) == "\u{0}")
        #expect(string(#""""#) == "")
    }

    @Test func numbers() {
        guard case .number(let big, let bigInteger)? = parse("6.0E7"),
              case .number(let whole, let wholeInteger)? = parse("-42"),
              case .number(let huge, let hugeInteger)? = parse("123456789012345678901234567890"),
              case .number(let small, nil)? = parse("1e-3") else {
            Issue.record("numbers did not parse")
            return
        }
        #expect(big == 60_000_000 && bigInteger == nil)
        #expect(whole == -42 && wholeInteger == -42)
        #expect(huge == 1.2345678901234568e29 && hugeInteger == nil)
        #expect(small == 0.001)
    }

    @Test func duplicateKeysKeepTheFirst() {
        guard case .object(let members)? = parse(#"{"a": 1, "a": 2}"#), case .number(1, _)? = members["a"] else {
            Issue.record("expected the first value")
            return
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        #expect(parse(String(repeating: "[", count: 100_000)) == nil)
        #expect(parse(String(repeating: "[", count: 50) + String(repeating: "]", count: 50)) != nil)
    }

    @Test(arguments: [
        "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[01]", "[1.]", "[.5]", "[-]", "[+1]", "[1e]",
        "[NaN]", "[Infinity]", "[1e400]", "\"unterminated", "\"tab\there\"", "\"bad \\x escape\"", "\"\\u12\"",
        "\"\\ud800\"", "\"\\ud800\\u0041\"", "\"\\udc00\"", "[true false]", "tru", "nul", "{} {}", "[1] x", "'single'",
        "{\"a\":1}\u{0}",
    ])
    func invalidDocumentsAreRefused(text: String) {
        #expect(parse(text) == nil, "\(text.debugDescription) should be refused")
    }

    // MARK: both decoding paths agree

    static let pageInputs: [String] = [
        #"{"page_no":1,"items_per_page":1,"total_count":0,"offset":0,"limit":1,"last_page":0,"has_next":false,"has_prev":false,"pages":[]}"#,
        #"{"pageNo":1,"itemsPerPage":3,"offset":0,"limit":3,"lastPage":1,"hasNext":false,"hasPrev":false,"pages":[]}"#,
        #"{"page_no":"1"}"#, #"{"page_no":null}"#, "[1, 2]", "null", "{}",
        #"{"page_no":1,"items_per_page":1,"total_count":0,"offset":0,"limit":1,"last_page":0,"has_next":0,"has_prev":false,"pages":[]}"#,
        #"{"page_no":1,"items_per_page":1,"total_count":0,"offset":0,"limit":1,"last_page":0,"has_next":false,"has_prev":false,"pages":{}}"#,
        #"{"page_no":1,"items_per_page":1,"total_count":0,"offset":0,"limit":1,"last_page":0,"has_next":false,"has_prev":false,"pages":[null]}"#,
        #"{"page_no":1.5,"items_per_page":1,"total_count":0,"offset":0,"limit":1,"last_page":0,"has_next":false,"has_prev":false,"pages":[]}"#,
    ]

    @Test func listPagesDecodeTheSameBothWays() throws {
        var inputs = Self.pageInputs.map { Data($0.utf8) }
        inputs += try ["v2a-list-page.json", "v2b-list-page.json"].map(FixtureFiles.data)
        inputs += [EdgeCaseDecodingTests.v2aPage([EdgeCaseDecodingTests.item(), EdgeCaseDecodingTests.item(["price": #""x""#], id: 2)]),
                   EdgeCaseDecodingTests.v2aPage([EdgeCaseDecodingTests.item(["stock": "2.0", "vendorName": #""v""#])]),
                   EdgeCaseDecodingTests.v2aPage([EdgeCaseDecodingTests.item(["created_at": #""2022-02-30""#])]),
                   EdgeCaseDecodingTests.v2aPage([EdgeCaseDecodingTests.item(["thumbnail": nil])])]
        for data in inputs {
            let fast = Result { () throws(OpenMarketError) in try OpenMarketJSON.decodeListPage(data) }
            let foundation = Result { () throws(OpenMarketError) in try OpenMarketJSON.decode(ProductListPage.self, from: data) }
            expectSame(fast, foundation, String(decoding: data.prefix(80), as: UTF8.self))
        }
    }

    @Test func detailsDecodeTheSameBothWays() throws {
        var inputs = try ["v2a-product-detail.json", "v2b-product-detail.json"].map(FixtureFiles.data)
        inputs += [EdgeCaseDecodingTests.detail(), EdgeCaseDecodingTests.detail(#", "vendors": null"#),
                   EdgeCaseDecodingTests.detail(#", "vendors": {"id": 1}"#),
                   EdgeCaseDecodingTests.detail(#", "vendors": {"id": 1, "name": "v", "issued_at": 5}"#),
                   EdgeCaseDecodingTests.detail(images: #"[{"id": 1, "url": "u", "thumbnail_url": "t", "succeed": "yes"}]"#),
                   EdgeCaseDecodingTests.detail(images: #"[{"id": 1, "url": "u", "thumbnailUrl": "t"}]"#),
                   EdgeCaseDecodingTests.detail(images: "5")]
        for data in inputs {
            let fast = Result { () throws(OpenMarketError) in try OpenMarketJSON.decodeDetail(data) }
            let foundation = Result { () throws(OpenMarketError) in try OpenMarketJSON.decode(ProductDetail.self, from: data) }
            expectSame(fast, foundation, String(decoding: data.prefix(80), as: UTF8.self))
        }
    }

    /// Same value, or errors at the same path (reasons may word type names differently).
    private func expectSame<T: Equatable>(_ fast: Result<T, OpenMarketError>, _ foundation: Result<T, OpenMarketError>,
                                          _ input: String) {
        switch (fast, foundation) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(input)")
        case (.failure(.undecodable(let pathA, _)), .failure(.undecodable(let pathB, _))):
            #expect(pathA == pathB, "\(input)")
        default:
            Issue.record("paths disagree for \(input): \(fast) vs \(foundation)")
        }
    }
}

extension JSONParserTests {
    @Test func invalidUTF8InAStringIsRepairedNotRefused() {
        var bytes = Array(#"{"name":"ab"#.utf8)
        bytes += [0xFF]
        bytes += Array(#""}"#.utf8)
        guard case .object(let members)? = try? JSONValue.parse(Data(bytes)), case .string(let name)? = members["name"] else {
            Issue.record("expected an object")
            return
        }
        #expect(name == "ab\u{FFFD}")
    }
}
