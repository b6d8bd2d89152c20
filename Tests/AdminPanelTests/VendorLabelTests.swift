import Foundation
import Testing
import HTMLTemplates
import OpenMarketCore
@testable import AdminPanel

/// The list names the seller's own store one way, whichever answer a row came from.
@Suite struct VendorLabelTests {
    private static func vendor(_ item: ProductListItem) -> String? {
        let presenter = ProductPresenter(media: MediaLinks(apiBaseURL: URL(string: "http://127.0.0.1:8081")!))
        guard case .object(let fields) = presenter.listItem(item, ownVendorID: 7, LanguageTests.ko),
              case .string(let vendor)? = fields["vendor"] else { return nil }
        return vendor
    }

    private static func item(vendorID: Int, vendorName: String?) -> ProductListItem {
        ProductListItem(id: 1, vendorID: vendorID, vendorName: vendorName, name: "텀블러", thumbnail: "http://127.0.0.1:8081/a.png",
                        currency: .KRW, price: 12_000, bargainPrice: 12_000, discountedPrice: 0, stock: 3,
                        createdAt: Date(timeIntervalSince1970: 0), issuedAt: Date(timeIntervalSince1970: 0))
    }

    @Test func ownRowsSayYourStoreWithOrWithoutTheAPIName() {
        #expect(Self.vendor(Self.item(vendorID: 7, vendorName: "seller")) == "내 스토어")
        #expect(Self.vendor(Self.item(vendorID: 7, vendorName: nil)) == "내 스토어")
    }

    @Test func othersAreNamedAsTheAPINamesThem() {
        #expect(Self.vendor(Self.item(vendorID: 8, vendorName: "다른 가게")) == "다른 가게")
        #expect(Self.vendor(Self.item(vendorID: 8, vendorName: nil)) == "판매자 8")
    }
}
