import Foundation

/// The seller of a product, as embedded in a product detail under the key `vendors`.
/// v2a sends `{name, id, created_at, issued_at}`, v2b only `{id, name}`.
public struct Vendor: Sendable, Equatable, Decodable {
    public var id: Int
    public var name: String
    public var createdAt: Date?
    public var issuedAt: Date?

    public init(id: Int, name: String, createdAt: Date? = nil, issuedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.issuedAt = issuedAt
    }

    /// For `JSONDecoder` users: the same reading as `init(reading:)` (see `DecodableModel`).
    public init(from decoder: any Decoder) throws { self = try decoder.readModel(Self.init(reading:)) }

    /// The one decoder of this model's fields.
    init(reading json: JSONObjectReader) throws(OpenMarketError) {
        id = try json.int(APIKeys.id)
        name = try json.string(APIKeys.name)
        createdAt = try json.optionalDate(APIKeys.createdAt)
        issuedAt = try json.optionalDate(APIKeys.issuedAt)
    }
}
