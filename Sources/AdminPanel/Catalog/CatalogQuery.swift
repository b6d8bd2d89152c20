import Foundation
import NetworkIO
import OpenMarketCore

/// The orders of `GET /products?sort=…`. Unknown values fall back to `newest`.
enum CatalogSort: String, Sendable, CaseIterable {
    case newest, oldest, price, priceDescending = "-price", stock, stockDescending = "-stock", name, updated
}

/// `show=all|mine`.
enum OwnerFilter: String, Sendable, CaseIterable {
    case all, mine
}

/// `stock=any|in-stock|sold-out`.
enum StockFilter: String, Sendable, CaseIterable {
    case any, inStock = "in-stock", soldOut = "sold-out"
}

/// One view of the catalog as the list URL describes it: every parameter parsed leniently
/// (an unknown or out-of-range value is the default, never an error), and the canonical URL
/// that gives the same view back (defaults left out, so links stay short and stable).
struct CatalogQuery: Sendable, Equatable {
    static let pageSizes = [20, 50, 100]
    static let maxSearchLength = 100
    static let maxPage = 1_000_000

    var view: ListView = .list
    var search = ""
    var sort: CatalogSort = .newest
    var show: OwnerFilter = .all
    var stock: StockFilter = .any
    var discountedOnly = false
    var currency: Currency?
    var perPage = 20
    var page = 1

    init() {}

    /// Reads the query string; `view` falls back to `defaultView` (the remembered choice).
    init(_ value: (String) -> String?, defaultView: ListView = .list) {
        view = value("view").flatMap(ListView.init(rawValue:)) ?? defaultView
        search = String((value("q") ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(Self.maxSearchLength))
        sort = value("sort").flatMap(CatalogSort.init(rawValue:)) ?? .newest
        show = value("show").flatMap(OwnerFilter.init(rawValue:)) ?? .all
        stock = value("stock").flatMap(StockFilter.init(rawValue:)) ?? .any
        discountedOnly = value("discounted") == "1"
        currency = value("currency").flatMap(Currency.init(rawValue:))
        perPage = value("per_page").flatMap(Int.init).flatMap { Self.pageSizes.contains($0) ? $0 : nil } ?? 20
        page = min(max(1, value("page").flatMap(Int.init) ?? 1), Self.maxPage)
    }

    /// True when the API itself can answer this view: newest first, nothing filtered or searched.
    /// (A search goes to the local copy too: its index also matches names without their spaces.)
    var isPlainNewestFirst: Bool {
        sort == .newest && show == .all && stock == .any && !discountedOnly && currency == nil && search.isEmpty
    }

    /// True when something narrows the catalog (for the count line and the empty state).
    var isFiltered: Bool {
        show != .all || stock != .any || discountedOnly || currency != nil || !search.isEmpty
    }

    /// The query items of this view, defaults left out. `page` and `view` always come first.
    func items(page: Int? = nil, view: ListView? = nil, includePage: Bool = true) -> [(String, String)] {
        var items: [(String, String)] = []
        if includePage { items.append(("page", String(page ?? self.page))) }
        items.append(("view", (view ?? self.view).rawValue))
        if !search.isEmpty { items.append(("q", search)) }
        if sort != .newest { items.append(("sort", sort.rawValue)) }
        if show != .all { items.append(("show", show.rawValue)) }
        if stock != .any { items.append(("stock", stock.rawValue)) }
        if discountedOnly { items.append(("discounted", "1")) }
        if let currency { items.append(("currency", currency.rawValue)) }
        if perPage != 20 { items.append(("per_page", String(perPage))) }
        return items
    }

    /// `/products?page=N&view=V…`: the list URL of this view at another page or view.
    func url(page: Int? = nil, view: ListView? = nil) -> String {
        "/products?" + Self.encoded(items(page: page, view: view))
    }

    /// The same view (every page) as CSV.
    var exportURL: String {
        "/products/export.csv?" + Self.encoded(items(includePage: false))
    }

    /// The same view (every page) as an Excel workbook.
    var exportWorkbookURL: String {
        "/products/export.xlsx?" + Self.encoded(items(includePage: false))
    }

    /// The same view (every page) as a CSV for editing and importing again.
    var editExportURL: String {
        "/products/export-edit.csv?" + Self.encoded(items(includePage: false))
    }

    /// The same view (every page) as an Excel workbook for editing and importing again.
    var editExportWorkbookURL: String {
        "/products/export-edit.xlsx?" + Self.encoded(items(includePage: false))
    }

    /// This view with every filter and the search cleared (sort, page size and view kept).
    var cleared: CatalogQuery {
        var query = CatalogQuery()
        query.view = view
        query.sort = sort
        query.perPage = perPage
        return query
    }

    static func encoded(_ items: [(String, String)]) -> String {
        items.map { $0.0 + "=" + encode($0.1) }.joined(separator: "&")
    }

    /// Query-component encoding: everything but unreserved ASCII becomes %XX (UTF-8 bytes), as
    /// `PercentEncoding.encode` does. Written into one buffer of the exact size: a list page encodes
    /// its own URL once per row (each row's back link), so this runs hundreds of times a page.
    static func encode(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var escaped = 0
            for byte in bytes where !PercentEncoding.isUnreserved(byte) { escaped += 1 }
            if escaped == 0 { return nil }
            // Written in place at the exact size counted above (no array, no second copy);
            // `CatalogQueryEncodingTests` compare it with `addingPercentEncoding` on hostile texts.
            return String(unsafeUninitializedCapacity: bytes.count + 2 * escaped) { out in
                var count = 0
                for byte in bytes {
                    if PercentEncoding.isUnreserved(byte) {
                        out[count] = byte
                        count += 1
                    } else {
                        out[count] = UInt8(ascii: "%")
                        out[count + 1] = hexDigits[Int(byte >> 4)]
                        out[count + 2] = hexDigits[Int(byte & 0x0F)]
                        count += 3
                    }
                }
                return count
            }
        } ?? text
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
