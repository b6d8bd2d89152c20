import Foundation

/// One v1 product (`GET /item/{id}`, and the answer of every write): the list item's fields
/// plus `descriptions` and the image URLs. The product's password is never part of it.
public struct V1ItemDetail: Sendable, Equatable, Decodable {
    public var id: Int
    public var title: String
    public var descriptions: String
    public var price: Int
    public var currency: Currency
    public var stock: Int
    /// Absent when the product never had a discount.
    public var discountedPrice: Int?
    /// One per image in upload order (the camp's seeded products may have fewer).
    public var thumbnails: [String]
    public var images: [String]
    public var registrationDate: Date

    public init(id: Int, title: String, descriptions: String, price: Int, currency: Currency, stock: Int,
                discountedPrice: Int? = nil, thumbnails: [String], images: [String], registrationDate: Date) {
        self.id = id
        self.title = title
        self.descriptions = descriptions
        self.price = price
        self.currency = currency
        self.stock = stock
        self.discountedPrice = discountedPrice
        self.thumbnails = thumbnails
        self.images = images
        self.registrationDate = registrationDate
    }

    /// For `JSONDecoder` users: the same reading as `init(reading:)` (see `DecodableModel`).
    public init(from decoder: any Decoder) throws { self = try decoder.readModel(Self.init(reading:)) }

    /// The one decoder of this model's fields.
    init(reading json: JSONObjectReader) throws(OpenMarketError) {
        id = try json.int(V1Keys.id)
        title = try json.string(V1Keys.title)
        descriptions = try json.string(V1Keys.descriptions)
        price = try json.int(V1Keys.price)
        currency = try json.currency(V1Keys.currency)
        stock = try json.int(V1Keys.stock)
        discountedPrice = try json.optionalInt(V1Keys.discountedPrice)
        thumbnails = try json.strings(V1Keys.thumbnails)
        images = try json.strings(V1Keys.images)
        registrationDate = try json.epochSeconds(V1Keys.registrationDate)
    }
}
