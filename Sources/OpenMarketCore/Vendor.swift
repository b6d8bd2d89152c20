import Foundation

/// The seller of a product, as embedded in a product detail under the key `vendors`.
/// v2a sends `{name, id, created_at, issued_at}`, v2b only `{id, name}`.
public struct Vendor: Sendable, Equatable, Codable {
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

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        id = try c.decodeInt(APIKeys.id)
        name = try c.decode(String.self, APIKeys.name)
        createdAt = try c.decodeDateIfPresent(APIKeys.createdAt)
        issuedAt = try c.decodeDateIfPresent(APIKeys.issuedAt)
    }

    init(reading json: JSONObjectReader) throws(OpenMarketError) {
        id = try json.int(APIKeys.id)
        name = try json.string(APIKeys.name)
        createdAt = try json.optionalDate(APIKeys.createdAt)
        issuedAt = try json.optionalDate(APIKeys.issuedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        let dialect = encoder.openMarketDialect
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode(id, forKey: "id")
        try c.encode(name, forKey: "name")
        // v2b never sent the vendor's dates; keep the shape faithful to the dialect.
        if dialect == .v2a {
            try c.encodeDateIfPresent(createdAt, "created_at", dialect)
            try c.encodeDateIfPresent(issuedAt, "issued_at", dialect)
        }
    }
}
