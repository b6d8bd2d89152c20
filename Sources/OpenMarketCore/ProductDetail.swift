import Foundation

/// One product with all its images and its vendor (JSON key `vendors`).
public struct ProductDetail: Sendable, Equatable, Codable {
    public var id: Int
    public var vendorID: Int
    public var name: String
    /// The live server allowed empty descriptions; a missing or null one decodes as "".
    public var description: String
    public var thumbnail: String
    public var currency: Currency
    public var price: Double
    public var bargainPrice: Double
    public var discountedPrice: Double
    public var stock: Int
    public var createdAt: Date
    public var issuedAt: Date
    public var images: [ProductImage]
    public var vendor: Vendor?

    public init(id: Int, vendorID: Int, name: String, description: String, thumbnail: String,
                currency: Currency, price: Double, bargainPrice: Double, discountedPrice: Double,
                stock: Int, createdAt: Date, issuedAt: Date, images: [ProductImage], vendor: Vendor? = nil) {
        self.id = id
        self.vendorID = vendorID
        self.name = name
        self.description = description
        self.thumbnail = thumbnail
        self.currency = currency
        self.price = price
        self.bargainPrice = bargainPrice
        self.discountedPrice = discountedPrice
        self.stock = stock
        self.createdAt = createdAt
        self.issuedAt = issuedAt
        self.images = images
        self.vendor = vendor
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        id = try c.decodeInt("id")
        vendorID = try c.decodeInt("vendor_id", "vendorId", "vendorID")
        name = try c.decode(String.self, "name")
        description = try c.decodeIfPresent(String.self, "description", "descriptions") ?? ""
        thumbnail = try c.decode(String.self, "thumbnail")
        currency = try c.decode(Currency.self, "currency")
        price = try c.decodeMoney("price")
        bargainPrice = try c.decodeMoney("bargain_price", "bargainPrice")
        discountedPrice = try c.decodeMoney("discounted_price", "discountedPrice")
        stock = try c.decodeInt("stock")
        createdAt = try c.decodeDate("created_at", "createdAt")
        issuedAt = try c.decodeDate("issued_at", "issuedAt")
        images = try c.decode([ProductImage].self, "images")
        vendor = try c.decodeIfPresent(Vendor.self, "vendors", "vendor")
    }

    public func encode(to encoder: any Encoder) throws {
        let dialect = encoder.openMarketDialect
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode(id, forKey: "id")
        try c.encode(vendorID, forKey: "vendor_id")
        try c.encode(name, forKey: "name")
        try c.encode(description, forKey: "description")
        try c.encode(thumbnail, forKey: "thumbnail")
        try c.encode(currency, forKey: "currency")
        try c.encode(price, forKey: "price")
        try c.encode(bargainPrice, forKey: "bargain_price")
        try c.encode(discountedPrice, forKey: "discounted_price")
        try c.encode(stock, forKey: "stock")
        try c.encodeDate(createdAt, "created_at", dialect)
        try c.encodeDate(issuedAt, "issued_at", dialect)
        try c.encode(images, forKey: "images")
        try c.encodeIfPresent(vendor, forKey: "vendors")
    }
}
