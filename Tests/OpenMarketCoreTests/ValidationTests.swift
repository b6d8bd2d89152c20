import Foundation
import Testing
@testable import OpenMarketCore

@Suite struct NewProductValidationTests {
    static let valid = NewProduct(name: "Milk tumbler", description: "A white bottle-shaped tumbler.",
                                  price: 3500, currency: .KRW, discountedPrice: 100, stock: 2,
                                  images: [ImageUpload(filename: "a.png", data: SampleImage.png)])

    private func fields(_ draft: NewProduct) -> [String] { draft.validate().map(\.field) }

    @Test func aValidDraftHasNoIssues() {
        #expect(Self.valid.validate() == [])
    }

    @Test func everyBrokenRuleIsReportedAtOnceInFormOrder() {
        let draft = NewProduct(name: "ab", description: "too short", price: 0, currency: .USD,
                               discountedPrice: -1, stock: -3,
                               images: [ImageUpload(filename: "logo.svg", data: SampleImage.svg),
                                        ImageUpload(filename: "big.png", data: SampleImage.png(size: 307_201))])
        let issues = draft.validate()
        #expect(issues.map(\.field) == ["name", "description", "price", "discounted_price", "stock", "images", "images"])
        #expect(issues[0].message == "The name must be at least 3 characters (it has 2).")
        #expect(issues[1].message == "The description must be at least 10 characters (it has 9).")
        #expect(issues[2].message == "The price must be more than 0.")
        #expect(issues[3].message == "The discount cannot be negative.")
        #expect(issues[4].message == "The stock cannot be negative.")
        #expect(issues[5].message == "“logo.svg” is not a JPEG, PNG, GIF or WebP image.")
        #expect(issues[6].message == "“big.png” is 301 KB; each image can be at most 300 KB.")
    }

    @Test func nameLengthBoundsCountCharactersNotBytes() {
        var draft = Self.valid
        for (name, ok) in [("abc", true), ("커피잔", true), (String(repeating: "가", count: 100), true),
                           (String(repeating: "a", count: 101), false), ("ab", false), ("   ", false), ("", false),
                           ("👍🏽👍🏽👍🏽", true)] {
            draft.name = name
            #expect(fields(draft) == (ok ? [] : ["name"]), "name \(name.debugDescription)")
        }
        draft.name = String(repeating: "a", count: 101)
        #expect(draft.validate().first?.message == "The name can be at most 100 characters (it has 101).")
        draft.name = "  "
        #expect(draft.validate().first?.message == "Enter a name (3–100 characters).")
    }

    @Test func descriptionLengthBounds() {
        var draft = Self.valid
        for (count, ok) in [(9, false), (10, true), (1000, true), (1001, false)] {
            draft.description = String(repeating: "설", count: count)
            #expect(fields(draft) == (ok ? [] : ["description"]), "\(count) characters")
        }
    }

    @Test func imageCountBounds() {
        var draft = Self.valid
        let image = ImageUpload(filename: "x.jpg", data: SampleImage.jpeg)
        draft.images = []
        #expect(draft.validate() == [FieldIssue(field: "images", message: "Add at least one image.")])
        draft.images = Array(repeating: image, count: 5)
        #expect(draft.validate() == [])
        draft.images = Array(repeating: image, count: 6)
        #expect(draft.validate() == [FieldIssue(field: "images", message: "Add at most 5 images (6 were chosen).")])
    }

    @Test func imageSizeLimitIsExactly307200Bytes() {
        var draft = Self.valid
        draft.images = [ImageUpload(filename: "ok.png", data: SampleImage.png(size: 307_200))]
        #expect(draft.validate() == [])
        draft.images = [ImageUpload(filename: "over.png", data: SampleImage.png(size: 307_201))]
        #expect(fields(draft) == ["images"])
    }

    @Test func imageTypeIsJudgedByBytesNeverByName() {
        var draft = Self.valid
        draft.images = [ImageUpload(filename: "photo.svg", data: SampleImage.png),
                        ImageUpload(filename: "drawing.png", data: SampleImage.svg),
                        ImageUpload(filename: "empty.jpg", data: Data()),
                        ImageUpload(filename: "", data: Data("text".utf8))]
        let issues = draft.validate()
        #expect(issues.map(\.message) == ["“drawing.png” is not a JPEG, PNG, GIF or WebP image.",
                                          "“empty.jpg” is not a JPEG, PNG, GIF or WebP image.",
                                          "“unnamed file” is not a JPEG, PNG, GIF or WebP image."])
    }

    @Test func allAcceptedFormatsPass() {
        var draft = Self.valid
        draft.images = [SampleImage.jpeg, SampleImage.png, SampleImage.gif, SampleImage.webp]
            .map { ImageUpload(filename: "f", data: $0) }
        #expect(draft.validate() == [])
    }

    @Test func priceAndDiscountRules() {
        var draft = Self.valid
        draft.currency = .USD   // cents allowed: the rules below are about signs and order
        for (price, discount, expected) in [
            (3500.0, 3500.0, [String]()), (3500, 0, []), (0.01, 0, []), (3500, 3500.5, ["discounted_price"]),
            (-1, 0, ["price"]), (.nan, 0, ["price"]), (.infinity, 0, ["price"]), (100, .nan, ["discounted_price"]),
            (100, -.infinity, ["discounted_price"]), (-5, 10, ["price"]),
        ] {
            draft.price = price
            draft.discountedPrice = discount
            #expect(fields(draft) == expected, "price \(price) discount \(discount)")
        }
        draft.price = 5000
        draft.discountedPrice = 6000
        #expect(draft.validate() == [FieldIssue(field: "discounted_price",
                                                message: "The discount cannot be more than the price (5000).")])
        draft.price = 12.5
        draft.discountedPrice = 13
        #expect(draft.validate().first?.message == "The discount cannot be more than the price (12.5).")
        draft.price = .nan
        #expect(draft.validate().first?.message == "Enter the price as a number.")
    }

    @Test func stockZeroIsAllowed() {
        var draft = Self.valid
        draft.stock = 0
        #expect(draft.validate() == [])
        draft.stock = Int.min
        #expect(fields(draft) == ["stock"])
    }

    @Test func currencyFromFormInput() {
        #expect(ProductRules.currencyIssues("KRW") == [])
        #expect(ProductRules.currencyIssues("USD") == [])
        #expect(ProductRules.currencyIssues("krw").map(\.field) == ["currency"])
        #expect(ProductRules.currencyIssues("").map(\.field) == ["currency"])
    }

    @Test func ruleNumbers() {
        #expect(ProductRules.nameLength == 3...100)
        #expect(ProductRules.descriptionLength == 10...1000)
        #expect(ProductRules.imageCount == 1...5)
        #expect(ProductRules.maxImageBytes == 307_200)
    }
}

@Suite struct ProductChangesValidationTests {
    static let current = ProductDetail(
        id: 32, vendorID: 15, name: "Tumbler", description: "A white tumbler.", thumbnail: "http://h/t/35",
        currency: .KRW, price: 3500, bargainPrice: 3400, discountedPrice: 100, stock: 2,
        createdAt: utcDay(2022, 10, 18), issuedAt: utcDay(2022, 10, 18),
        images: [ProductImage(id: 35, url: "http://h/35", thumbnailURL: "http://h/t/35"),
                 ProductImage(id: 36, url: "http://h/36", thumbnailURL: "http://h/t/36")])

    @Test func emptyChanges() {
        #expect(ProductChanges().isEmpty)
        #expect(ProductChanges().validate(current: Self.current) == [])
        #expect(!ProductChanges(stock: 0).isEmpty)
        #expect(!ProductChanges(thumbnailID: 36).isEmpty)
    }

    @Test func onlyChangedFieldsAreChecked() {
        #expect(ProductChanges(stock: 9).validate(current: Self.current) == [])
        #expect(ProductChanges(name: "ab").validate(current: Self.current).map(\.field) == ["name"])
    }

    @Test func everyBrokenRuleAtOnce() {
        let changes = ProductChanges(name: "", description: "short", thumbnailID: 99, price: -1,
                                     discountedPrice: -2, stock: -1)
        #expect(changes.validate(current: Self.current).map(\.field)
                == ["name", "description", "price", "discounted_price", "stock", "thumbnail_id"])
    }

    @Test func loweringThePriceBelowTheCurrentDiscountBreaksTheRule() {
        let issues = ProductChanges(price: 50).validate(current: Self.current)
        #expect(issues == [FieldIssue(field: "price", message: "The price cannot be lower than the current discount (100).")])
        #expect(ProductChanges(price: 100).validate(current: Self.current) == [])
        // Without the current product the change alone looks fine.
        #expect(ProductChanges(price: 50).validate(current: nil) == [])
    }

    @Test func raisingTheDiscountAboveTheCurrentPriceBreaksTheRule() {
        #expect(ProductChanges(discountedPrice: 4000).validate(current: Self.current)
                == [FieldIssue(field: "discounted_price", message: "The discount cannot be more than the price (3500).")])
        #expect(ProductChanges(price: 5000, discountedPrice: 4000).validate(current: Self.current) == [])
        #expect(ProductChanges(price: 10, discountedPrice: 20).validate(current: nil).map(\.field) == ["discounted_price"])
    }

    @Test func thumbnailMustBeOneOfTheProductsImages() {
        #expect(ProductChanges(thumbnailID: 36).validate(current: Self.current) == [])
        #expect(ProductChanges(thumbnailID: 37).validate(current: Self.current)
                == [FieldIssue(field: "thumbnail_id", message: "Choose one of this product's images as the thumbnail.")])
        #expect(ProductChanges(thumbnailID: 37).validate(current: nil) == [])
        #expect(ProductChanges(thumbnailID: 0).validate(current: nil).map(\.field) == ["thumbnail_id"])
    }
}

/// Pixel limits from the declared size: pixel bombs are refused before decoding.
@Suite struct PixelLimitTests {
    /// A PNG whose IHDR declares `width`×`height`; no pixel data is needed to be refused.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8)
        for value in [width, height] { bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        bytes += [8, 2, 0, 0, 0, 0, 0, 0, 0]
        return Data(bytes)
    }

    @Test func bombsAreRefusedNamingTheFile() {
        let bomb = ProductRules.fileIssues(filename: "bomb.png", data: Self.pngHeader(width: 30000, height: 30000))
        #expect(bomb.map(\.code) == ["image_too_many_pixels"])
        #expect(bomb.first?.message.contains("“bomb.png” is 30000×30000 pixels") == true)
        #expect(bomb.first?.arguments["file"] == "bomb.png")
        // One side over 10,000 though under 40 MP; under both sides but over 40 MP.
        #expect(ProductRules.fileIssues(filename: "tall.png", data: Self.pngHeader(width: 100, height: 10001)).map(\.code) == ["image_too_many_pixels"])
        #expect(ProductRules.fileIssues(filename: "wide.png", data: Self.pngHeader(width: 8000, height: 5001)).map(\.code) == ["image_too_many_pixels"])
        #expect(ProductRules.fileIssues(filename: "ok.png", data: Self.pngHeader(width: 10000, height: 4000)).isEmpty)
        #expect(ProductRules.fileIssues(filename: "zero.png", data: Self.pngHeader(width: 0, height: 10)).map(\.code) == ["image_no_pixels"])
    }

    @Test func aHeaderWithoutASizeIsLeftToTheAPI() {
        let truncated = Self.pngHeader(width: 10, height: 10).prefix(18)
        #expect(ProductRules.fileIssues(filename: "cut.png", data: Data(truncated)).isEmpty)
    }

    @Test func theDraftChecksPixelsToo() {
        let draft = NewProduct(name: "Pixel bomb", description: "A tiny file declaring a huge picture.", price: 1000,
                               currency: .KRW, images: [ImageUpload(filename: "bomb.png", data: Self.pngHeader(width: 65535, height: 65535))])
        #expect(draft.validate().map(\.code) == ["image_too_many_pixels"])
    }
}
