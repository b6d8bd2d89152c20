import Foundation

/// One product in a list page. v2b adds `vendorName` (camelCase even there) and `description`.
public struct ProductListItem: Sendable, Equatable, Codable {
    public var id: Int
    public var vendorID: Int
    /// v2b only.
    public var vendorName: String?
    public var name: String
    /// v2b only.
    public var description: String?
    public var thumbnail: String
    public var currency: Currency
    public var price: Double
    public var bargainPrice: Double
    public var discountedPrice: Double
    public var stock: Int
    public var createdAt: Date
    public var issuedAt: Date

    public init(id: Int, vendorID: Int, vendorName: String? = nil, name: String, description: String? = nil,
                thumbnail: String, currency: Currency, price: Double, bargainPrice: Double,
                discountedPrice: Double, stock: Int, createdAt: Date, issuedAt: Date) {
        self.id = id
        self.vendorID = vendorID
        self.vendorName = vendorName
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
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        id = try c.decodeInt(APIKeys.id)
        vendorID = try c.decodeInt(APIKeys.vendorID)
        vendorName = try c.decodeIfPresent(String.self, APIKeys.vendorName)
        name = try c.decode(String.self, APIKeys.name)
        description = try c.decodeIfPresent(String.self, APIKeys.description)
        thumbnail = try c.decode(String.self, APIKeys.thumbnail)
        currency = try c.decode(Currency.self, APIKeys.currency)
        price = try c.decodeMoney(APIKeys.price)
        bargainPrice = try c.decodeMoney(APIKeys.bargainPrice)
        discountedPrice = try c.decodeMoney(APIKeys.discountedPrice)
        stock = try c.decodeInt(APIKeys.stock)
        createdAt = try c.decodeDate(APIKeys.createdAt)
        issuedAt = try c.decodeDate(APIKeys.issuedAt)
    }

    init(reading json: JSONObjectReader) throws(OpenMarketError) {
        id = try json.int(APIKeys.id)
        vendorID = try json.int(APIKeys.vendorID)
        vendorName = try json.optionalString(APIKeys.vendorName)
        name = try json.string(APIKeys.name)
        description = try json.optionalString(APIKeys.description)
        thumbnail = try json.string(APIKeys.thumbnail)
        currency = try json.currency(APIKeys.currency)
        price = try json.money(APIKeys.price)
        bargainPrice = try json.money(APIKeys.bargainPrice)
        discountedPrice = try json.money(APIKeys.discountedPrice)
        stock = try json.int(APIKeys.stock)
        createdAt = try json.date(APIKeys.createdAt)
        issuedAt = try json.date(APIKeys.issuedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        let dialect = encoder.openMarketDialect
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode(id, forKey: "id")
        try c.encode(vendorID, forKey: "vendor_id")
        if dialect == .v2b {
            try c.encodeIfPresent(vendorName, forKey: "vendorName")
        }
        try c.encode(name, forKey: "name")
        if dialect == .v2b {
            try c.encodeIfPresent(description, forKey: "description")
        }
        try c.encode(thumbnail, forKey: "thumbnail")
        try c.encode(currency, forKey: "currency")
        try c.encode(price, forKey: "price")
        try c.encode(bargainPrice, forKey: "bargain_price")
        try c.encode(discountedPrice, forKey: "discounted_price")
        try c.encode(stock, forKey: "stock")
        try c.encodeDate(createdAt, "created_at", dialect)
        try c.encodeDate(issuedAt, "issued_at", dialect)
    }
}
