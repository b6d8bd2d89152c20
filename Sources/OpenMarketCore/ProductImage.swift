import Foundation

/// One image of a product. URLs are absolute and may have no file extension (v2b).
public struct ProductImage: Sendable, Equatable, Codable {
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

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        id = try c.decodeInt(APIKeys.id)
        url = try c.decode(String.self, APIKeys.url)
        thumbnailURL = try c.decode(String.self, APIKeys.thumbnailURL)
        succeed = try c.decodeIfPresent(Bool.self, APIKeys.succeed)
        issuedAt = try c.decodeDateIfPresent(APIKeys.issuedAt)
    }

    init(reading json: JSONObjectReader) throws(OpenMarketError) {
        id = try json.int(APIKeys.id)
        url = try json.string(APIKeys.url)
        thumbnailURL = try json.string(APIKeys.thumbnailURL)
        succeed = try json.optionalBool(APIKeys.succeed)
        issuedAt = try json.optionalDate(APIKeys.issuedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        let dialect = encoder.openMarketDialect
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode(id, forKey: "id")
        try c.encode(url, forKey: "url")
        try c.encode(thumbnailURL, forKey: "thumbnail_url")
        if dialect == .v2a { try c.encodeIfPresent(succeed, forKey: "succeed") }
        try c.encodeDateIfPresent(issuedAt, "issued_at", dialect)
    }
}
