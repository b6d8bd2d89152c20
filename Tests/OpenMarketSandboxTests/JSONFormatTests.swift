import Foundation
import OpenMarketCore
import Testing
@testable import OpenMarketSandbox

@Suite struct JavaDoubleTests {
    @Test(arguments: [
        (50_000.0, "50000.0"), (0.0, "0.0"), (-0.0, "-0.0"), (1.0, "1.0"), (19.99, "19.99"),
        (9_999_999.0, "9999999.0"), (10_000_000.0, "1.0E7"), (60_000_000.0, "6.0E7"),
        (59_999_500.0, "5.99995E7"), (123_456_789.0, "1.23456789E8"), (1e16, "1.0E16"),
        (1.5e300, "1.5E300"), (0.001, "0.001"), (0.0001, "1.0E-4"), (0.000123, "1.23E-4"),
        (123.456, "123.456"), (-2_500.5, "-2500.5"), (-60_000_000.0, "-6.0E7"), (100.0, "100.0"),
    ])
    func formatsLikeJava(value: Double, expected: String) {
        #expect(JavaDouble.format(value) == expected)
    }
}

@Suite struct JSONTextTests {
    @Test func escapesQuotesBackslashesAndControlCharactersOnly() {
        var json = JSONText()
        json.beginObject()
        json.member("a", "quote \" slash / back \\ line\n tab\t bell\u{07} 한글 😗")
        json.endObject()
        #expect(json.text == #"{"a":"quote \" slash / back \\ line\n tab\t bell\u0007 한글 😗"}"#)
        let decoded = try? JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: String]
        #expect(decoded?["a"] == "quote \" slash / back \\ line\n tab\t bell\u{07} 한글 😗")
    }

    @Test func nestsContainersWithCommas() {
        var json = JSONText()
        json.beginObject()
        json.member("n", 1)
        json.key("list")
        json.beginArray()
        json.int(1)
        json.beginObject(); json.member("x", true); json.member("y", money: 6e7); json.endObject()
        json.endArray()
        json.member("z", false)
        json.endObject()
        #expect(json.text == #"{"n":1,"list":[1,{"x":true,"y":6.0E7}],"z":false}"#)
    }
}

@Suite struct ProductJSONTests {
    static let day = Day(year: 2022, month: 1, day: 15)
    static let product = ProductRecord(
        id: 300, vendorID: 3, vendorName: "Vendor2", vendorCreatedDay: Day(year: 2021, month: 12, day: 27),
        fields: ProductFields(name: "우유병 텀블러", description: "desc", currency: "KRW", price: 60_000_000,
                              discountedPrice: 500, stock: 2),
        createdDay: day, issuedDay: day, thumbnailFile: "b.png", thumbnailImageID: nil,
        images: [ImageRecord(id: 219, fileName: "a.jpg", issuedDay: day)])

    /// The key order of Tests/OpenMarketCoreTests/Fixtures/v2a-product-detail.json.
    @Test func v2aDetailHasTheRealKeyOrderAndFormats() {
        let json = ProductJSON(dialect: .v2a, mediaBase: "http://h:1").detail(Self.product)
        #expect(json == """
            {"id":300,"vendor_id":3,"name":"우유병 텀블러","thumbnail":"http://h:1/media/thumb/b.png","currency":"KRW",\
            "price":6.0E7,"description":"desc","bargain_price":5.99995E7,"discounted_price":500.0,"stock":2,\
            "created_at":"2022-01-15T00:00:00.00","issued_at":"2022-01-15T00:00:00.00",\
            "images":[{"id":219,"url":"http://h:1/media/a.jpg","thumbnail_url":"http://h:1/media/thumb/a.jpg",\
            "succeed":true,"issued_at":"2022-01-15T00:00:00.00"}],\
            "vendors":{"name":"Vendor2","id":3,"created_at":"2021-12-27T00:00:00.00","issued_at":"2021-12-27T00:00:00.00"}}
            """)
    }

    /// The key order of Tests/OpenMarketCoreTests/Fixtures/v2b-product-detail.json.
    @Test func v2bDetailHasTheRealKeyOrderAndFormats() {
        let json = ProductJSON(dialect: .v2b, mediaBase: "http://h:1").detail(Self.product)
        #expect(json == """
            {"id":300,"vendor_id":3,"name":"우유병 텀블러","description":"desc","thumbnail":"http://h:1/media/thumb/b.png",\
            "currency":"KRW","price":6.0E7,"bargain_price":5.99995E7,"discounted_price":500.0,"stock":2,\
            "created_at":"2022-01-15T00:00:00","issued_at":"2022-01-15T00:00:00",\
            "images":[{"id":219,"url":"http://h:1/media/a.jpg","thumbnail_url":"http://h:1/media/thumb/a.jpg",\
            "issued_at":"2022-01-15T00:00:00"}],"vendors":{"id":3,"name":"Vendor2"}}
            """)
    }

    @Test func v2aListPageMatchesTheFixtureLayout() {
        let json = ProductJSON(dialect: .v2a, mediaBase: "http://h:1")
            .listPage(pageNo: 2, itemsPerPage: 1, totalCount: 3, products: [Self.product])
        #expect(json == """
            {"page_no":2,"items_per_page":1,"total_count":3,"offset":1,"limit":2,"pages":[{"id":300,"vendor_id":3,\
            "name":"우유병 텀블러","thumbnail":"http://h:1/media/thumb/b.png","currency":"KRW","price":6.0E7,\
            "bargain_price":5.99995E7,"discounted_price":500.0,"stock":2,"created_at":"2022-01-15T00:00:00.00",\
            "issued_at":"2022-01-15T00:00:00.00"}],"last_page":3,"has_next":true,"has_prev":true}
            """)
    }

    @Test func v2bListPageMatchesTheFixtureLayout() {
        let json = ProductJSON(dialect: .v2b, mediaBase: "http://h:1")
            .listPage(pageNo: 1, itemsPerPage: 2, totalCount: 1, products: [Self.product])
        #expect(json == """
            {"pageNo":1,"itemsPerPage":2,"totalCount":1,"offset":0,"limit":2,"lastPage":1,"hasNext":false,\
            "hasPrev":false,"pages":[{"id":300,"vendor_id":3,"vendorName":"Vendor2","name":"우유병 텀블러",\
            "description":"desc","thumbnail":"http://h:1/media/thumb/b.png","currency":"KRW","price":6.0E7,\
            "bargain_price":5.99995E7,"discounted_price":500.0,"stock":2,"created_at":"2022-01-15T00:00:00",\
            "issued_at":"2022-01-15T00:00:00"}]}
            """)
    }

    /// What we write must be readable by our own client core in both dialects.
    @Test(arguments: [Dialect.v2a, .v2b])
    func clientCoreDecodesWhatWeWrite(dialect: Dialect) throws {
        let writer = ProductJSON(dialect: dialect, mediaBase: "http://h:1")
        let detail = try OpenMarketJSON.decodeDetail(Data(writer.detail(Self.product).utf8))
        #expect(detail.price == 60_000_000 && detail.bargainPrice == 59_999_500 && detail.images.count == 1)
        #expect(detail.vendor?.name == "Vendor2" && detail.description == "desc")
        let page = try OpenMarketJSON.decodeListPage(Data(writer.listPage(pageNo: 1, itemsPerPage: 20, totalCount: 1,
                                                                           products: [Self.product]).utf8))
        #expect(page.pages.map(\.id) == [300] && page.lastPage == 1)
    }

    @Test func errorBodyIsCodeAndMessage() {
        #expect(ProductJSON.error(status: 404, message: "product 7 does not exist")
                == #"{"code":404,"message":"product 7 does not exist"}"#)
    }
}
