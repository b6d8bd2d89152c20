import Foundation
import Testing
@testable import OpenMarketCore

/// Every captured answer decodes, with the values the capture holds.
@Suite struct FixtureDecodingTests {
    @Test func theCopiesHoldEveryKindOfAnswer() throws {
        #expect(try FixtureFiles.names(in: FixtureFiles.copies) == FixtureFiles.expected)
    }

    @Test(arguments: FixtureFiles.expected)
    func everyCopyDecodes(name: String) throws {
        try decodeByKind(try FixtureFiles.data(name), name: name)
    }

    /// The decoder is chosen by the file's dialect prefix and kind; a file that fits none is a
    /// failure, never skipped.
    private func decodeByKind(_ data: Data, name: String) throws {
        let isList = name.contains("list-page")
        let isDetail = name.contains("product-detail") || name.contains("item-detail")
        guard isList != isDetail else {
            Issue.record("\(name): neither a list page nor a detail")
            return
        }
        if name.hasPrefix("v1-") {
            if isList {
                #expect(!(try OpenMarketJSON.decodeV1ListPage(data)).items.isEmpty, "\(name)")
            } else {
                #expect(!(try OpenMarketJSON.decodeV1Detail(data)).images.isEmpty, "\(name)")
            }
        } else if name.hasPrefix("v2a-") || name.hasPrefix("v2b-") {
            if isList {
                #expect(!(try OpenMarketJSON.decodeListPage(data)).pages.isEmpty, "\(name)")
            } else {
                #expect(!(try OpenMarketJSON.decodeDetail(data)).images.isEmpty, "\(name)")
            }
        } else {
            Issue.record("\(name): no known dialect prefix (v1-, v2a-, v2b-)")
        }
    }

    @Test func v1ListPage() throws {
        let page = try OpenMarketJSON.decodeV1ListPage(try FixtureFiles.data("v1-list-page.json"))
        #expect(page.page == 1)
        #expect(page.items.map(\.id) == [26, 27, 28])
        let first = page.items[0]
        #expect(first.title == "MacBook Air" && first.currency == .KRW)
        #expect(first.price == 1_290_000 && first.stock == 1_000_000_000_000)
        #expect(first.discountedPrice == nil)
        #expect(first.thumbnails.count == 3)
        #expect(first.thumbnails[0].hasSuffix("/thumbnails/1-1.png"))
        #expect(first.registrationDate.timeIntervalSince1970 == 1611523563.719116)
        #expect(page.items[1].currency == .USD && page.items[1].price == 1690 && page.items[1].stock == 0)
        #expect(page.items[1].registrationDate.timeIntervalSince1970 == 1611523563.7237701)
        #expect(page.items[2].discountedPrice == 89_000)
    }

    @Test func v1ItemDetail() throws {
        let detail = try OpenMarketJSON.decodeV1Detail(try FixtureFiles.data("v1-item-detail.json"))
        #expect(detail.id == 26 && detail.title == "MacBook Air")
        #expect(detail.descriptions.hasPrefix("가장 얇고 가벼운 MacBook이"))
        #expect(detail.descriptions.contains("\n드디어 찾아왔습니다."))
        #expect(detail.price == 1_290_000 && detail.currency == .KRW && detail.stock == 1_000_000_000_000)
        #expect(detail.discountedPrice == nil)
        #expect(detail.thumbnails.count == 3 && detail.images.count == 5)
        #expect(detail.images[4] == "https://camp-open-market.s3.ap-northeast-2.amazonaws.com/images/1-5.png")
        #expect(detail.registrationDate.timeIntervalSince1970 == 1611523563.719116)
    }

    @Test func v1DecodableAgreesWithTheReader() throws {
        let data = try FixtureFiles.data("v1-list-page.json")
        #expect(try JSONDecoder().decode(V1ListPage.self, from: data) == (try OpenMarketJSON.decodeV1ListPage(data)))
        let detail = try FixtureFiles.data("v1-item-detail.json")
        #expect(try JSONDecoder().decode(V1ItemDetail.self, from: detail) == (try OpenMarketJSON.decodeV1Detail(detail)))
    }

    @Test func v1AnswersNameTheBrokenKey() {
        let page = try? OpenMarketJSON.decodeV1ListPage(Data(#"{"page":1,"items":[{"id":1,"title":"a","price":1,"currency":"KRW","stock":0,"thumbnails":[]}]}"#.utf8))
        #expect(page?.unreadable == [UnreadableProduct(id: 1, field: "registration_date", reason: "missing")])
        #expect(throws: OpenMarketError.undecodable(path: "images[1]", reason: "expected a string")) {
            try OpenMarketJSON.decodeV1Detail(Data(#"{"id":1,"title":"a","descriptions":"d","price":1,"currency":"KRW","stock":0,"thumbnails":[],"images":["x",2],"registration_date":1.5}"#.utf8))
        }
    }

    @Test func v2aListPage() throws {
        let page = try OpenMarketJSON.decodeListPage(try FixtureFiles.data("v2a-list-page.json"))
        #expect(page.pageNo == 1)
        #expect(page.itemsPerPage == 15)
        #expect(page.totalCount == 1387)
        #expect(page.offset == 0 && page.limit == 15)
        #expect(page.lastPage == 93)
        #expect(page.hasNext && !page.hasPrev)
        #expect(page.pages.map(\.id) == [2094, 2093])
        let first = page.pages[0]
        #expect(first.vendorID == 6)
        #expect(first.vendorName == nil && first.description == nil)
        #expect(first.name == "ㄴㄴㄴㄴㄴㄴ")
        #expect(first.thumbnail.hasSuffix("/6/thumb/ef2a5592d33111ec9676d7a49354f5e5.jpg"))
        #expect(first.currency == .KRW)
        #expect(first.price == 123_123 && first.bargainPrice == 123_122 && first.discountedPrice == 1)
        #expect(first.stock == 1)
        #expect(first.createdAt == utcDay(2022, 5, 14) && first.issuedAt == utcDay(2022, 5, 14))
        #expect(page.pages[1].discountedPrice == 0)
    }

    @Test func v2bListPage() throws {
        let page = try OpenMarketJSON.decodeListPage(try FixtureFiles.data("v2b-list-page.json"))
        #expect(page.pageNo == 1 && page.itemsPerPage == 3 && page.totalCount == 1182)
        #expect(page.lastPage == 394 && page.hasNext && !page.hasPrev)
        #expect(page.pages.map(\.id) == [1944, 1942, 1941])
        let second = page.pages[1]
        #expect(second.vendorName == "kyo12")
        #expect(second.description == "패딩판매합니다. 이번에 안팔리면 그냥 제가 입을게요")
        #expect(second.price == 300_000 && second.bargainPrice == 20_000 && second.discountedPrice == 280_000)
        #expect(second.createdAt == utcDay(2023, 3, 23))
        // v2b image URLs have no extension.
        #expect(second.thumbnail.hasSuffix("b96fe2a5c94f11edacad2f53e97775d4_thumb"))
    }

    @Test func v2aProductDetail() throws {
        let detail = try OpenMarketJSON.decodeDetail(try FixtureFiles.data("v2a-product-detail.json"))
        #expect(detail.id == 300 && detail.vendorID == 3)
        #expect(detail.name == "99999Test Product" && detail.description == "desc")
        #expect(detail.price == 0 && detail.stock == 0)
        #expect(detail.createdAt == utcDay(2022, 1, 15))
        #expect(detail.images == [ProductImage(
            id: 219,
            url: "https://s3.ap-northeast-2.amazonaws.com/media.yagom-academy.kr/training-resources/3/origin/6a676f8575fa11ecabfa7164a3728cac.jpg",
            thumbnailURL: "https://s3.ap-northeast-2.amazonaws.com/media.yagom-academy.kr/training-resources/3/thumb/6a676f8575fa11ecabfa7164a3728cac.jpg",
            succeed: true, issuedAt: utcDay(2022, 1, 15))])
        #expect(detail.vendor == Vendor(id: 3, name: "Vendor2", createdAt: utcDay(2021, 12, 27),
                                        issuedAt: utcDay(2021, 12, 27)))
    }

    @Test func v2bProductDetail() throws {
        let detail = try OpenMarketJSON.decodeDetail(try FixtureFiles.data("v2b-product-detail.json"))
        #expect(detail.id == 32 && detail.vendorID == 15 && detail.name == "우유병 텀블러")
        #expect(detail.description.hasSuffix("구매를 서두르세요😗"))
        #expect(detail.price == 3500 && detail.bargainPrice == 3400 && detail.discountedPrice == 100)
        #expect(detail.images.map(\.id) == [35, 36])
        #expect(detail.images[0].succeed == nil)
        #expect(detail.images[0].issuedAt == utcDay(2022, 10, 18))
        #expect(detail.images[1].url.hasSuffix("956d84f94f1a11eda2009d4c2abd0743_origin"))
        #expect(detail.vendor == Vendor(id: 15, name: "red123"))
    }
}
