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

    /// `areInOrder` over a snapshot's products by index, with each name folded once up front
    /// (folding in every comparison was most of building a snapshot of 10,000 products).
    struct SortKeys {
        let products: [CatalogProduct]
        let foldedNames: [String]

        init(_ products: [CatalogProduct]) {
            self.products = products
            foldedNames = products.map { $0.name.lowercased() }
        }

        func areInOrder(_ i: Int, _ j: Int, by sort: CatalogSort) -> Bool {
            guard sort == .name else { return CatalogOrdering.areInOrder(products[i], products[j], by: sort) }
            let (x, y) = (foldedNames[i], foldedNames[j])
            if x != y { return x < y }
            let (a, b) = (products[i], products[j])
            return a.name != b.name ? a.name < b.name : a.id < b.id
        }
    }

    /// What the filters test, one compact column per snapshot (same indexes as its products):
    /// three yes/no facts packed in a byte, and the vendor. A pass over 10,000 products then
    /// reads 10 KB of flags instead of 10,000 products.
    struct FilterColumns: Sendable {
        static let inStock: UInt8 = 1, discounted: UInt8 = 2, usd: UInt8 = 4

        let flags: [UInt8]
        let vendorIDs: [Int]

        init(_ products: [CatalogProduct]) {
            flags = products.map { product in
                (product.stock > 0 ? Self.inStock : 0) | (product.discountedPrice > 0 ? Self.discounted : 0)
                    | (product.currency == .USD ? Self.usd : 0)
            }
            vendorIDs = products.map(\.vendorID)
        }
    }

    /// `Filter` over a snapshot's columns by index, the search already answered for every
    /// product (`found`, nil without a search). Keeps exactly what `Filter.keeps` keeps: each
    /// condition is a flag that must be set or clear (`mask`, `wanted`).
    struct RowFilter {
        private let flags: [UInt8]
        private let vendorIDs: [Int]
        private let mask: UInt8
        private let wanted: UInt8
        /// "Mine": only this vendor's products (nil vendor: "mine" with an unknown vendor keeps nothing).
        private let vendor: Int??
        private let found: [Bool]?

        init(_ filter: Filter, columns: FilterColumns, found: [Bool]?) {
            flags = columns.flags
            vendorIDs = columns.vendorIDs
            var mask: UInt8 = 0, wanted: UInt8 = 0
            switch filter.stock {
            case .any: break
            case .inStock: mask |= FilterColumns.inStock; wanted |= FilterColumns.inStock
            case .soldOut: mask |= FilterColumns.inStock
            }
            if filter.discountedOnly { mask |= FilterColumns.discounted; wanted |= FilterColumns.discounted }
            switch filter.currency {
            case nil: break
            case .USD?: mask |= FilterColumns.usd; wanted |= FilterColumns.usd
            case .KRW?: mask |= FilterColumns.usd
            }
            self.mask = mask
            self.wanted = wanted
            vendor = filter.mineOnly ? .some(filter.ownVendorID) : .none
            self.found = found
        }

        func keeps(_ index: Int) -> Bool {
            if flags[index] & mask != wanted { return false }
            if case .some(let own) = vendor, own == nil || vendorIDs[index] != own { return false }
            if let found, !found[index] { return false }
            return true
        }
    }
}
