import OpenMarketCore

/// What differs between the API's dialects, chosen once at start (`PanelDialects.chosen(for:)`)
/// and handed to the parts that differ, so none of them compares the dialect itself.
///
/// v1, the 2021 API, gives each product its own password, asked by every form that writes it
/// (register, edit, restore, revert) and counted toward the delete limit; it takes whole-number
/// money and knows no vendor, so the vendor's features are not offered. v2a and v2b write with
/// the vendor's secret.
protocol PanelDialect: Sendable {
    /// Every write carries the product's own password, asked by the form that sends it.
    var productPasswords: Bool { get }
    /// The API knows vendors: the sheet, scheduled discounts, imports, stop selling and the
    /// vendor password page are offered, and only the vendor's own products may be written.
    var hasVendor: Bool { get }
    /// What a refused delete's activity row says (an `ActivityDetail` name).
    var wrongPasswordDetail: String { get }
    /// How many products of one run a revert sends at once.
    func revertConcurrency(bulkConcurrency: Int) -> Int
}

/// The 2021 API: a password per product.
struct ProductPasswordDialect: PanelDialect {
    var productPasswords: Bool { true }
    var hasVendor: Bool { false }
    var wrongPasswordDetail: String { "wrong_product_password" }
    /// One at a time, so a wrong product password counts once per product tried, not several at once.
    func revertConcurrency(bulkConcurrency: Int) -> Int { 1 }
}

/// v2a and v2b: the vendor's identifier and secret.
struct VendorDialect: PanelDialect {
    var productPasswords: Bool { false }
    var hasVendor: Bool { true }
    var wrongPasswordDetail: String { "wrong_vendor_password" }
    /// Like the bulk run itself.
    func revertConcurrency(bulkConcurrency: Int) -> Int { max(1, bulkConcurrency) }
}

enum PanelDialects {
    static func chosen(for dialect: Dialect) -> any PanelDialect {
        switch dialect {
        case .v1: ProductPasswordDialect()
        case .v2a, .v2b: VendorDialect()
        }
    }
}
