import Foundation

/// The data of one `event: product`: which product, what happened, who did it (`null`: another
/// API client, found by the sync), when, and the product as the list shows it (`null` once
/// deleted). Only what every role sees in the list; never a secret.
struct LiveProductEvent: Encodable {
    var id: Int
    var action: String
    var by: String?
    var at: Date
    var product: LiveProduct?

    private enum Keys: String, CodingKey { case id, action, by, at, product }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id)
        try c.encode(action, forKey: .action)
        try c.encode(by, forKey: .by)   // written as null, not left out
        try c.encode(at.formatted(.iso8601), forKey: .at)
        try c.encode(product, forKey: .product)
    }
}

/// A product's fields as the list shows them, raw and as each language writes them.
struct LiveProduct: Encodable {
    var id: Int
    var name: String
    var vendorID: Int
    var currency: String
    var price: Double
    var discountedPrice: Double
    var bargainPrice: Double
    var stock: Int
    var soldOut: Bool
    /// Per language (`en`, `ko`): `price` (what a buyer pays), `original_price`, `stock`.
    var display: [String: LiveDisplay]

    enum CodingKeys: String, CodingKey {
        case id, name, currency, price, stock, display
        case vendorID = "vendor_id"
        case discountedPrice = "discounted_price"
        case bargainPrice = "bargain_price"
        case soldOut = "sold_out"
    }
}

/// A product's list texts in one language.
struct LiveDisplay: Encodable {
    var price: String
    var originalPrice: String
    var discounted: Bool
    /// The discount amount (the product page's "discount" field).
    var discount: String
    var stock: String

    enum CodingKeys: String, CodingKey {
        case price, discounted, discount, stock
        case originalPrice = "original_price"
    }
}

extension LiveProduct {
    /// The product's list fields, with the texts the list page would show in each language.
    init(_ product: CatalogProduct, presenter: ProductPresenter, catalogs: StringCatalogs) {
        var display: [String: LiveDisplay] = [:]
        var name = product.name
        for language in Language.allCases {
            let l = Localizer(catalog: catalogs[language])
            let row = presenter.listRow(product.listItem, ownVendorID: nil, l)
            name = row.name
            display[language.rawValue] = LiveDisplay(price: row.price.current, originalPrice: row.price.original,
                                                     discounted: row.price.discounted,
                                                     discount: l.money(product.discountedPrice, product.currency),
                                                     stock: row.stockText)
        }
        self.init(id: product.id, name: name, vendorID: product.vendorID, currency: product.currency.rawValue,
                  price: product.price, discountedPrice: product.discountedPrice, bargainPrice: product.bargainPrice,
                  stock: product.stock, soldOut: product.stock <= 0, display: display)
    }
}

extension CatalogProduct {
    /// Same in everything a live event shows (a detail read carries more than a list page, such
    /// as the vendor's name, which is no change).
    func showsSameAs(_ other: CatalogProduct) -> Bool {
        name == other.name && currency == other.currency && price == other.price && stock == other.stock
            && discountedPrice == other.discountedPrice && bargainPrice == other.bargainPrice
    }
}
