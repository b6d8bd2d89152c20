import Foundation

/// One image of a product. URLs are absolute and may have no file extension (v2b).
public struct ProductImage: Sendable, Equatable, Decodable {
    public var id: Int
    public var url: String
    public var thumbnailURL: String
    /// Only v2a sends `succeed`.
    public var succeed: Bool?
    public var issuedAt: Date?

    public init(id: Int, url: String, thumbnailURL: String, succeed: Bool? = nil, issuedAt: Date? = nil) {
        self.id = id
        self.url = url
        self.thumbnailURL = thumbnailURL
        self.succeed = succeed
        self.issuedAt = issuedAt
    }

    /// For `JSONDecoder` users: the same reading as `init(reading:)` (see `DecodableModel`).
    public init(from decoder: any Decoder) throws { self = try decoder.readModel(Self.init(reading:)) }

    /// The one decoder of this model's fields.
    init(reading json: JSONObjectReader) throws(OpenMarketError) {
        id = try json.int(APIKeys.id)
        url = try json.string(APIKeys.url)
        thumbnailURL = try json.string(APIKeys.thumbnailURL)
        succeed = try json.optionalBool(APIKeys.succeed)
        issuedAt = try json.optionalDate(APIKeys.issuedAt)
    }
}
