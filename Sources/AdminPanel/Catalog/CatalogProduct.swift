import Foundation
import OpenMarketCore

/// One product as the local catalog copy keeps it: the list fields of the API plus the search
/// key and the time this copy first saw the product's current version (for `sort=updated`).
struct CatalogProduct: Sendable, Equatable {
    var id: Int
    var vendorID: Int
    var vendorName: String?
    var name: String
    var thumbnail: String
    var currency: Currency
    var price: Double
    var bargainPrice: Double
    var discountedPrice: Double
    var stock: Int
    var createdAt: Date
    var issuedAt: Date
    /// When this copy first held the product's current values (set by the copy, not the API).
    var changedAt: Date
    /// Name and vendor name, lowercased with every space removed: `무선키보드` finds `무선 키보드`.
    var searchKey: String

    init(id: Int, vendorID: Int, vendorName: String?, name: String, thumbnail: String, currency: Currency,
         price: Double, bargainPrice: Double, discountedPrice: Double, stock: Int, createdAt: Date, issuedAt: Date,
         changedAt: Date) {
        self.id = id
        self.vendorID = vendorID
        self.vendorName = vendorName
        self.name = name
        self.thumbnail = thumbnail
        self.currency = currency
        self.price = price
        self.bargainPrice = bargainPrice
        self.discountedPrice = discountedPrice
        self.stock = stock
        self.createdAt = createdAt
        self.issuedAt = issuedAt
        self.changedAt = changedAt
        searchKey = Self.searchKey(name + "\u{1F}" + (vendorName ?? ""))
    }

    init(_ item: ProductListItem, seenAt: Date) {
        self.init(id: item.id, vendorID: item.vendorID, vendorName: item.vendorName, name: item.name,
                  thumbnail: item.thumbnail, currency: item.currency, price: item.price,
                  bargainPrice: item.bargainPrice, discountedPrice: item.discountedPrice, stock: item.stock,
                  createdAt: item.createdAt, issuedAt: item.issuedAt, changedAt: seenAt)
    }

    init(_ detail: ProductDetail, seenAt: Date) {
        self.init(id: detail.id, vendorID: detail.vendorID, vendorName: detail.vendor?.name, name: detail.name,
                  thumbnail: detail.thumbnail, currency: detail.currency, price: detail.price,
                  bargainPrice: detail.bargainPrice, discountedPrice: detail.discountedPrice, stock: detail.stock,
                  createdAt: detail.createdAt, issuedAt: detail.issuedAt, changedAt: seenAt)
    }

    /// The form a search text and a product's names are compared in: case folded, and without
    /// white space, so a search with or without the spaces of a Korean name finds it.
    static func searchKey(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }
            .map(Character.init))
    }

    /// Same values as another copy of the product, ignoring when each copy saw them.
    func sameValues(as other: CatalogProduct) -> Bool {
        var other = other
        other.changedAt = changedAt
        // v2a list pages carry no vendor name; a name learnt from a detail is kept.
        if other.vendorName == nil { other.vendorName = vendorName; other.searchKey = searchKey }
        return self == other
    }

    /// As the list page's presenter wants it.
    var listItem: ProductListItem {
        ProductListItem(id: id, vendorID: vendorID, vendorName: vendorName, name: name, thumbnail: thumbnail,
                        currency: currency, price: price, bargainPrice: bargainPrice,
                        discountedPrice: discountedPrice, stock: stock, createdAt: createdAt, issuedAt: issuedAt)
    }
}
