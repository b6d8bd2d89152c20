import Foundation
import OpenMarketCore

/// What each `sort` means, and which products a view's filters keep.
///
/// Ties are broken by id so every order is total and pages never overlap: ascending id for
/// ascending orders (and for equal prices, stocks and names in either direction), descending id
/// for the newest-first orders. Price sorts compare `bargain_price`, the price a buyer pays, as a
/// plain number (a view mixing currencies compares ₩ and $ amounts as they are; filter by
/// `currency` to compare like with like).
enum CatalogOrdering {
    static func areInOrder(_ a: CatalogProduct, _ b: CatalogProduct, by sort: CatalogSort) -> Bool {
        switch sort {
        case .newest:
            return a.id > b.id
        case .oldest:
            return a.id < b.id
        case .price:
            return a.bargainPrice != b.bargainPrice ? a.bargainPrice < b.bargainPrice : a.id < b.id
        case .priceDescending:
            return a.bargainPrice != b.bargainPrice ? a.bargainPrice > b.bargainPrice : a.id < b.id
        case .stock:
            return a.stock != b.stock ? a.stock < b.stock : a.id < b.id
        case .stockDescending:
            return a.stock != b.stock ? a.stock > b.stock : a.id < b.id
        case .name:
            let (x, y) = (a.name.lowercased(), b.name.lowercased())
            if x != y { return x < y }
            return a.name != b.name ? a.name < b.name : a.id < b.id
        case .updated:
            // The API dates edits by day only; within a day, the change this copy saw last first.
            if a.issuedAt != b.issuedAt { return a.issuedAt > b.issuedAt }
            if a.changedAt != b.changedAt { return a.changedAt > b.changedAt }
            return a.id > b.id
        }
    }

    /// The filters of a view, with the search text already in its search-key form.
    struct Filter: Sendable {
        var ownVendorID: Int?
        var mineOnly: Bool
        var stock: StockFilter
        var discountedOnly: Bool
        var currency: Currency?
        var searchKey: String

        init(_ query: CatalogQuery, ownVendorID: Int?) {
            self.ownVendorID = ownVendorID
            mineOnly = query.show == .mine
            stock = query.stock
            discountedOnly = query.discountedOnly
            currency = query.currency
            searchKey = CatalogProduct.searchKey(query.search)
        }

        func keeps(_ product: CatalogProduct) -> Bool {
            // "Mine" with an unknown vendor keeps nothing rather than everything.
            if mineOnly && (ownVendorID == nil || product.vendorID != ownVendorID) { return false }
            switch stock {
            case .any: break
            case .inStock: if product.stock <= 0 { return false }
            case .soldOut: if product.stock > 0 { return false }
            }
            if discountedOnly && !(product.discountedPrice > 0) { return false }
            if let currency, product.currency != currency { return false }
            if !searchKey.isEmpty && !product.searchKey.contains(searchKey) { return false }
            return true
        }
    }
}
