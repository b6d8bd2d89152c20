import Foundation
import OpenMarketCore

/// An immutable picture of the local catalog with every sort order computed once, so a page of
/// any view is one pass over an order with the view's filter: no lock, no database, no copying
/// of products. The filters read a compact column of the few values they test (`columns`), and a
/// search reads the folded keys laid out as bytes (`searchIndex`), so a pass over 10,000
/// products touches no product. A new snapshot is built (lazily) after the copy changes.
final class CatalogSnapshot: Sendable {
    let products: [CatalogProduct]
    /// For each sort, the indexes into `products` in that order.
    private let orders: [CatalogSort: [Int32]]
    /// What the filters test, per product (same indexes as `products`).
    private let columns: CatalogOrdering.FilterColumns
    private let searchIndex: CatalogSearchIndex
    let newestID: Int?
    /// Products the API sent that could not be read: shown as such on the first page of every
    /// view (they have no values to sort or filter by), never hiding the others.
    let unreadable: [UnreadableProduct]
    /// The currencies the products are priced in (the form asks for one only when USD is among them).
    let currencies: Set<Currency>

    init(_ products: [CatalogProduct], unreadable: [UnreadableProduct] = []) {
        self.products = products
        self.unreadable = unreadable
        var orders: [CatalogSort: [Int32]] = [:]
        let byID = products.indices.sorted { products[$0].id > products[$1].id }.map { Int32($0) }
        orders[.newest] = byID
        orders[.oldest] = byID.reversed()
        // Each name folded once, not once per comparison.
        let keys = CatalogOrdering.SortKeys(products)
        for sort in CatalogSort.allCases where orders[sort] == nil {
            orders[sort] = products.indices.sorted { keys.areInOrder($0, $1, by: sort) }.map { Int32($0) }
        }
        self.orders = orders
        columns = CatalogOrdering.FilterColumns(products)
        searchIndex = CatalogSearchIndex(products)
        newestID = byID.first.map { products[Int($0)].id }
        currencies = Set(products.map(\.currency))
    }

    var count: Int { products.count }

    /// One page of a view: its products, the filtered count, and the page actually shown (a
    /// page past the end shows the last one).
    struct Page: Sendable {
        var products: [CatalogProduct]
        var totalCount: Int
        var pageNo: Int
        var lastPage: Int
    }

    func page(_ query: CatalogQuery, ownVendorID: Int?) -> Page {
        let filter = rowFilter(query, ownVendorID: ownVendorID)
        let order = orders[query.sort] ?? []
        let perPage = query.perPage
        // One pass: count every match, keep only the requested page's (and, in case that page
        // is past the end, the last full page's) products.
        var total = 0
        var window: [Int32] = []
        window.reserveCapacity(perPage)
        let wantedStart = (query.page - 1) * perPage
        for index in order where filter.keeps(Int(index)) {
            if total >= wantedStart && total < wantedStart + perPage {
                window.append(index)
            }
            total += 1
        }
        let lastPage = max(1, (total + perPage - 1) / perPage)
        var pageNo = query.page
        if pageNo > lastPage {
            pageNo = lastPage
            window = matching(filter, order: order, from: (lastPage - 1) * perPage, count: perPage)
        }
        return Page(products: window.map { products[Int($0)] }, totalCount: total, pageNo: pageNo, lastPage: lastPage)
    }

    /// Every product of a view in its order, in slices of `batch` (the CSV export streams them).
    func all(_ query: CatalogQuery, ownVendorID: Int?) -> [Int32] {
        let filter = rowFilter(query, ownVendorID: ownVendorID)
        return (orders[query.sort] ?? []).filter { filter.keeps(Int($0)) }
    }

    /// The view's filter over this snapshot's rows, its search answered once for every product.
    /// A search that is a product number (`12`, `#12`) also finds that product.
    private func rowFilter(_ query: CatalogQuery, ownVendorID: Int?) -> CatalogOrdering.RowFilter {
        let filter = CatalogOrdering.Filter(query, ownVendorID: ownVendorID)
        var found = filter.searchKey.isEmpty ? nil : searchIndex.matches(filter.searchKey, in: products)
        if let number = Self.productNumber(query.search), let index = products.firstIndex(where: { $0.id == number }) {
            found?[index] = true
        }
        return CatalogOrdering.RowFilter(filter, columns: columns, found: found)
    }

    private func matching(_ filter: CatalogOrdering.RowFilter, order: [Int32], from start: Int, count: Int) -> [Int32] {
        var seen = 0
        var result: [Int32] = []
        for index in order where filter.keeps(Int(index)) {
            if seen >= start { result.append(index) }
            seen += 1
            if result.count == count { break }
        }
        return result
    }

    /// The product number a search names, if it is one: digits, optionally after `#`.
    static func productNumber(_ search: String) -> Int? {
        var text = Substring(search.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("#") { text = text.dropFirst() }
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text).flatMap { $0 > 0 ? $0 : nil }
    }

    func product(id: Int) -> CatalogProduct? {
        products.first { $0.id == id }
    }
}
