import Foundation

/// One product of a v1 list page (`GET /items/{page}`): no description and no images, only
/// thumbnails. Money and stock are whole numbers in v1.
public struct V1ListItem: Sendable, Equatable, Decodable {
    public var id: Int
    public var title: String
    public var price: Int
    public var currency: Currency
    public var stock: Int
    /// Absent when the product never had a discount.
    public var discountedPrice: Int?
    public var thumbnails: [String]
    public var registrationDate: Date

    public init(id: Int, title: String, price: Int, currency: Currency, stock: Int, discountedPrice: Int? = nil,
                thumbnails: [String], registrationDate: Date) {
        self.id = id
        self.title = title
        self.price = price
        self.currency = currency
        self.stock = stock
        self.discountedPrice = discountedPrice
        self.thumbnails = thumbnails
        self.registrationDate = registrationDate
    }

    /// For `JSONDecoder` users: the same reading as `init(reading:)` (see `DecodableModel`).
    public init(from decoder: any Decoder) throws { self = try decoder.readModel(Self.init(reading:)) }

    /// The one decoder of this model's fields.
    init(reading json: JSONObjectReader) throws(OpenMarketError) {
        id = try json.int(V1Keys.id)
        title = try json.string(V1Keys.title)
        price = try json.int(V1Keys.price)
        currency = try json.currency(V1Keys.currency)
        stock = try json.int(V1Keys.stock)
        discountedPrice = try json.optionalInt(V1Keys.discountedPrice)
        thumbnails = try json.strings(V1Keys.thumbnails)
        registrationDate = try json.epochSeconds(V1Keys.registrationDate)
    }
}
