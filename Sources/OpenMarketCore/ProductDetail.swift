import Foundation

/// One product with all its images and its vendor (JSON key `vendors`).
public struct ProductDetail: Sendable, Equatable, Decodable {
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

    /// For `JSONDecoder` users: the same reading as `init(reading:)` (see `DecodableModel`).
    public init(from decoder: any Decoder) throws { self = try decoder.readModel(Self.init(reading:)) }

    /// The one decoder of this model's fields.
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
}
