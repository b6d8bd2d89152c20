import Foundation
import HTTPServer
import OpenMarketCore
import Testing
@testable import OpenMarketSandbox

@Suite struct ProductInputTests {
    private func object(_ json: String) throws -> [String: JSONValue] {
        try JSONValue.object(from: Data(json.utf8), what: "params")
    }

    private func failure(_ body: () throws -> Void) -> APIFailure? {
        do { try body(); return nil } catch let failure as APIFailure { return failure } catch { return nil }
    }

    @Test func readsAValidRegistrationWithDefaultsAndEitherDescriptionKey() throws {
        let input = ProductInput(dialect: .v2a, strict: false)
        let registration = try input.registration(from: try object(
            #"{"name":"Mug","descriptions":"a mug","price":1000,"currency":"KRW","secret":"s","extra":[1]}"#))
        #expect(registration.name == "Mug" && registration.description == "a mug" && registration.price == 1000)
        #expect(registration.discountedPrice == 0 && registration.stock == 0)
        let tolerated = try input.registration(from: try object(
            #"{"name":"Mug","description":"other key","price":19.99,"currency":"USD","stock":3}"#))
        #expect(tolerated.description == "other key" && tolerated.price == 19.99 && tolerated.stock == 3)
    }

    @Test func namesEveryBrokenFieldAndWhy() throws {
        let input = ProductInput(dialect: .v2b, strict: false)
        let failure = failure {
            _ = try input.registration(from: try object(
                #"{"name":"\#(String(repeating: "가", count: 101))","price":"1000","currency":"EUR","discounted_price":-1,"stock":1.5}"#))
        }
        #expect(failure?.status == 400)
        let message = failure?.message ?? ""
        #expect(message.contains("name: must be at most 100 characters (got 101)"))
        #expect(message.contains("description: is required"))
        #expect(message.contains("price: must be a number"))
        #expect(message.contains("currency: must be KRW or USD"))
        #expect(message.contains("discounted_price: must be 0 or more"))
        #expect(message.contains("stock: must be a whole number"))
    }

    @Test func lowerBoundsOnlyInStrictMode() throws {
        let short = #"{"name":"ab","descriptions":"short","price":1,"currency":"KRW"}"#
        #expect(throws: Never.self) { _ = try ProductInput(dialect: .v2a, strict: false).registration(from: try object(short)) }
        let failure = failure { _ = try ProductInput(dialect: .v2a, strict: true).registration(from: try object(short)) }
        #expect(failure?.message == "name: must be at least 3 characters (got 2); descriptions: must be at least 10 characters (got 5)")
    }

    @Test func rangesAlwaysApply() throws {
        let input = ProductInput(dialect: .v2a, strict: false)
        for (json, expected) in [
            (#"{"name":"a","descriptions":"","price":0,"currency":"KRW"}"#, "price: must be greater than 0"),
            (#"{"name":"a","descriptions":"","price":10,"discounted_price":11,"currency":"KRW"}"#, "discounted_price: must not exceed the price"),
            (#"{"name":"a","descriptions":"","price":10,"stock":-1,"currency":"KRW"}"#, "stock: must be 0 or more"),
            (#"{"name":"a","descriptions":"","price":10,"stock":true,"currency":"KRW"}"#, "stock: must be a whole number"),
            (#"{"name":"  ","descriptions":"","price":10,"currency":"KRW"}"#, "name: must not be empty"),
            (#"{"name":7,"descriptions":"","price":10,"currency":"KRW"}"#, "name: must be a string"),
        ] {
            #expect(failure { _ = try input.registration(from: try object(json)) }?.message == expected)
        }
    }

    @Test func badJSONAndSecrets() throws {
        #expect(failure { _ = try JSONValue.object(from: Data("{".utf8), what: "params") }?.message == "params: not valid JSON")
        #expect(failure { _ = try JSONValue.object(from: Data("[1]".utf8), what: "body") }?.message == "body: must be a JSON object")
        let input = ProductInput(dialect: .v2a, strict: false)
        #expect(failure { _ = try input.secret(in: try object(#"{"name":"x"}"#)) }?.message == "secret: is required")
        #expect(failure { _ = try input.secret(in: try object(#"{"secret":5}"#)) }?.message == "secret: must be a string")
        #expect(try input.secret(in: try object(#"{"secret":"pw"}"#)) == "pw")
    }

    @Test func wholeNumbersMayCarryAFractionOrExponentButTextMustBeUTF8() throws {
        let input = ProductInput(dialect: .v2a, strict: false)
        let changes = try input.changes(from: try object(#"{"stock":3.0,"thumbnail_id":1e1}"#))
        #expect(changes.stock == 3 && changes.thumbnailID == 10)
        var notUTF8 = Data(#"{"name":"bad "#.utf8)
        notUTF8.append(0xFF)
        notUTF8.append(contentsOf: Data(#""}"#.utf8))
        #expect(failure { _ = try JSONValue.object(from: notUTF8, what: "body") }?.message == "body: not valid JSON")
        let withMark = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"secret":"pw"}"#.utf8)
        #expect(try input.secret(in: try JSONValue.object(from: withMark, what: "body")) == "pw")
    }

    @Test func patchRulesApplyToTheProductAfterTheChange() throws {
        let input = ProductInput(dialect: .v2a, strict: false)
        let day = Day(year: 2024, month: 1, day: 1)
        let product = ProductRecord(id: 1, vendorID: 1, vendorName: "v", vendorCreatedDay: day,
                                    fields: ProductFields(name: "n", description: "", currency: "KRW", price: 1_000,
                                                          discountedPrice: 500, stock: 1),
                                    createdDay: day, issuedDay: day, thumbnailFile: "a.png", thumbnailImageID: nil,
                                    images: [ImageRecord(id: 7, fileName: "a.png", issuedDay: day)])
        let lower = try input.changes(from: try object(#"{"price":400}"#))
        #expect(failure { _ = try input.apply(lower, to: product) }?.message
                == "price: the discounted price (500.0) must not exceed the price (400.0)")
        let both = try input.apply(try input.changes(from: try object(#"{"price":400,"discounted_price":0,"thumbnail_id":7}"#)), to: product)
        #expect(both.fields.price == 400 && both.fields.discountedPrice == 0 && both.thumbnailImageID == 7 && both.fields.name == "n")
        #expect(failure { _ = try input.apply(try input.changes(from: try object(#"{"thumbnail_id":8}"#)), to: product) }?.message
                == "thumbnail_id: 8 is not an image of this product")
        #expect(failure { _ = try input.changes(from: try object(#"{"currency":"krw"}"#)) }?.message == "currency: must be KRW or USD")
    }

    @Test func imagesAreCheckedByCountSizeAndContent() {
        let png = Data(SampleProducts.image(index: 0, imageIndex: 0))
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg"/>"#.utf8)
        let big = Data([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: 409_600))
        func message(_ images: [(String, Data)]) -> String? {
            failure { _ = try ProductInput.checkImages(images.map {
                UploadedFile(fieldName: "images", filename: $0.0, contentType: nil, data: $0.1)
            }) }?.message
        }
        #expect(message([]) == "images: at least 1 image is required")
        #expect(message(Array(repeating: ("a.png", png), count: 6)) == "images: at most 5 images are allowed (got 6)")
        #expect(message([("a.svg", svg)]) == "images: \"a.svg\" is not a JPEG, PNG, GIF or WebP image")
        #expect(message([("big.jpg", big)]) == "images: \"big.jpg\" is 409603 bytes; the limit is 307200 bytes")
        // The bytes decide, not the name: a 1×1 GIF called .png is a GIF.
        #expect(message([("fake.png", Data("GIF89a".utf8) + Data([1, 0, 1, 0, 0, 0, 0]))]) == nil)
        // A pixel bomb: a small file declaring a huge picture is refused by its header.
        let bomb = Data("GIF89a".utf8) + Data([0x10, 0x27, 0x11, 0x27, 0, 0, 0])   // 10000×10001
        #expect(message([("bomb.gif", bomb)]) == "images: \"bomb.gif\" is 10000×10001 pixels; each side can be at most 10000 pixels")
        let wide = Data("GIF89a".utf8) + Data([0x10, 0x27, 0x41, 0x1F, 0, 0, 0])   // 10000×8001 = 80 MP
        #expect(message([("wide.gif", wide)]) == "images: \"wide.gif\" is 10000×8001 pixels; an image can have at most 40 million pixels")
        #expect(message(Array(repeating: ("a.png", png), count: 5)) == nil)
    }
}
