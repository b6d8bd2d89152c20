import Foundation
import Testing
@testable import OpenMarketCore

/// Writing JSON the way the live servers did.
@Suite struct LiveJSONTests {
    /// The captured JSON without insignificant whitespace.
    static func compact(_ data: Data) -> String {
        var out = ""
        var inString = false
        var escaped = false
        for character in String(decoding: data, as: UTF8.self) {
            if inString {
                out.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
                out.append(character)
            } else if !character.isWhitespace {
                out.append(character)
            }
        }
        return out
    }

    @Test(arguments: ["v2a-list-page.json", "v2b-list-page.json"])
    func listPagesAreWrittenBackByteForByte(name: String) throws {
        let data = try FixtureFiles.data(name)
        let dialect: Dialect = name.hasPrefix("v2a") ? .v2a : .v2b
        let written = OpenMarketJSON.encode(try OpenMarketJSON.decodeListPage(data), dialect: dialect)
        #expect(String(decoding: written, as: UTF8.self) == Self.compact(data))
    }

    @Test(arguments: ["v2a-product-detail.json", "v2b-product-detail.json"])
    func detailsAreWrittenBackByteForByte(name: String) throws {
        let data = try FixtureFiles.data(name)
        let dialect: Dialect = name.hasPrefix("v2a") ? .v2a : .v2b
        let written = OpenMarketJSON.encode(try OpenMarketJSON.decodeDetail(data), dialect: dialect)
        #expect(String(decoding: written, as: UTF8.self) == Self.compact(data))
    }

    @Test func aPageConvertsBetweenDialects() throws {
        let page = try OpenMarketJSON.decodeListPage(try FixtureFiles.data("v2b-list-page.json"))
        let v2a = OpenMarketJSON.encode(page, dialect: .v2a)
        let text = String(decoding: v2a, as: UTF8.self)
        #expect(text.hasPrefix(#"{"page_no":1,"items_per_page":3,"total_count":1182,"offset":0,"limit":3,"pages":[{"id":1944,"vendor_id":50,"name":"#))
        #expect(!text.contains("vendorName") && text.contains(#""created_at":"2023-03-23T00:00:00.00""#))
        var back = try OpenMarketJSON.decodeListPage(v2a)
        #expect(back.pages.allSatisfy { $0.vendorName == nil && $0.description == nil })
        back.pages = page.pages
        #expect(back == page)
    }

    @Test(arguments: [
        (50_000.0, "50000.0"), (6.0e7, "6.0E7"), (1.2345e7, "1.2345E7"), (9_999_999.0, "9999999.0"), (1.0e7, "1.0E7"),
        (12.5, "12.5"), (0.001, "0.001"), (0.0001, "1.0E-4"), (123_123.0, "123123.0"), (0.1 + 0.2, "0.30000000000000004"),
        (1.0e21, "1.0E21"), (-3.5, "-3.5"), (0.0, "0.0"), (-6.0e7, "-6.0E7"), (1.0, "1.0"), (100.25, "100.25"),
        (123_456_789.5, "1.234567895E8"), (-0.0, "-0.0"), (9_999_999.5, "9999999.5"), (0.5, "0.5"), (Double.nan, "null"), (Double.infinity, "null"),
    ])
    func moneyIsWrittenLikeJavasDoubleToString(value: Double, expected: String) {
        #expect(OpenMarketJSON.formatMoney(value) == expected)
        if value.isFinite {
            #expect(Double(expected) == value)
        }
    }

    @Test func lineSeparatorsAreEscapedOtherMultibyteCharactersAreNot() throws {
        let message = "a\u{2028}b\u{2029}c…€\u{2027}😗\u{E2}"
        let body = OpenMarketJSON.encodeError(status: 500, message: message)
        #expect(String(decoding: body, as: UTF8.self) == #"{"code":500,"message":"a\u2028b\u2029c…€\#u{2027}😗\#u{E2}"}"#)
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        #expect(object?["message"] as? String == message)
    }

    @Test func stringsAreEscapedAndStayValidJSON() throws {
        let body = OpenMarketJSON.encodeError(status: 400, message: "quote \" backslash \\ newline \n tab \t nul \u{0} 커피 / end")
        #expect(String(decoding: body, as: UTF8.self)
                == #"{"code":400,"message":"quote \" backslash \\ newline \n tab \t nul \u0000 커피 / end"}"#)
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        #expect(object?["message"] as? String == "quote \" backslash \\ newline \n tab \t nul \u{0} 커피 / end")
    }
}
