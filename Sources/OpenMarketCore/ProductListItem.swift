import Foundation

/// One product in a list page. v2b adds `vendorName` (camelCase even there) and `description`.
public struct ProductListItem: Sendable, Equatable, Decodable {
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

    /// For `JSONDecoder` users: the same reading as `init(reading:)` (see `DecodableModel`).
    public init(from decoder: any Decoder) throws { self = try decoder.readModel(Self.init(reading:)) }

    /// The one decoder of this model's fields.
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
}
