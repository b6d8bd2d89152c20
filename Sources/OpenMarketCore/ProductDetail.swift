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
        id = try c.decodeInt(APIKeys.id)
        vendorID = try c.decodeInt(APIKeys.vendorID)
        name = try c.decode(String.self, APIKeys.name)
        description = try c.decodeIfPresent(String.self, APIKeys.description) ?? ""
        thumbnail = try c.decode(String.self, APIKeys.thumbnail)
        currency = try c.decode(Currency.self, APIKeys.currency)
        price = try c.decodeMoney(APIKeys.price)
        bargainPrice = try c.decodeMoney(APIKeys.bargainPrice)
        discountedPrice = try c.decodeMoney(APIKeys.discountedPrice)
        stock = try c.decodeInt(APIKeys.stock)
        createdAt = try c.decodeDate(APIKeys.createdAt)
        issuedAt = try c.decodeDate(APIKeys.issuedAt)
        images = try c.decode([ProductImage].self, APIKeys.images)
        vendor = try c.decodeIfPresent(Vendor.self, APIKeys.vendors)
    }

    init(reading json: JSONObjectReader) throws(OpenMarketError) {
        id = try json.int(APIKeys.id)
        vendorID = try json.int(APIKeys.vendorID)
        name = try json.string(APIKeys.name)
        description = try json.optionalString(APIKeys.description) ?? ""
        thumbnail = try json.string(APIKeys.thumbnail)
        currency = try json.currency(APIKeys.currency)
        price = try json.money(APIKeys.price)
        bargainPrice = try json.money(APIKeys.bargainPrice)
        discountedPrice = try json.money(APIKeys.discountedPrice)
        stock = try json.int(APIKeys.stock)
        createdAt = try json.date(APIKeys.createdAt)
        issuedAt = try json.date(APIKeys.issuedAt)
        var images: [ProductImage] = []
        for image in try json.objects(APIKeys.images) { images.append(try ProductImage(reading: image)) }
        self.images = images
        vendor = try json.optionalObject(APIKeys.vendors).map { (reader) throws(OpenMarketError) in try Vendor(reading: reader) }
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
