import Foundation

/// A coding key made from any string, so one model can accept the key spellings of both dialects
/// (`page_no` / `pageNo`, `vendorName` / `vendor_name`).
struct JSONKey: CodingKey, ExpressibleByStringLiteral, Hashable {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init(stringLiteral name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Every spelling of each member the API was seen to use, preferred spelling first (it is the
/// one a "missing" error names). Shared by both decoders, so they cannot disagree.
enum APIKeys {
    static let id = ["id"]
    static let vendorID = ["vendor_id", "vendorId", "vendorID"]
    static let vendorName = ["vendorName", "vendor_name"]
    static let name = ["name"]
    static let description = ["description", "descriptions"]
    static let thumbnail = ["thumbnail"]
    static let currency = ["currency"]
    static let price = ["price"]
    static let bargainPrice = ["bargain_price", "bargainPrice"]
    static let discountedPrice = ["discounted_price", "discountedPrice"]
    static let stock = ["stock"]
    static let createdAt = ["created_at", "createdAt"]
    static let issuedAt = ["issued_at", "issuedAt"]
    static let url = ["url"]
    static let thumbnailURL = ["thumbnail_url", "thumbnailUrl", "thumbnailURL"]
    static let succeed = ["succeed"]
    static let images = ["images"]
    static let vendors = ["vendors", "vendor"]
    static let pages = ["pages"]
    static let offset = ["offset"]
    static let limit = ["limit"]
}

extension KeyedDecodingContainer where Key == JSONKey {
    /// The first of `names` present in the object. When none is present the first name is the one
    /// reported missing, so callers list their preferred spelling first.
    private func presentKey(_ names: [String]) -> JSONKey? {
        for name in names where contains(JSONKey(name)) { return JSONKey(name) }
        return nil
    }

    func decode<T: Decodable>(_ type: T.Type, _ names: [String]) throws -> T {
        guard let key = presentKey(names) else {
            throw DecodingError.keyNotFound(JSONKey(names[0]), .init(
                codingPath: codingPath, debugDescription: "missing"))
        }
        return try decode(type, forKey: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, _ names: [String]) throws -> T? {
        guard let key = presentKey(names) else { return nil }
        return try decodeIfPresent(type, forKey: key)
    }

    /// An integer that may arrive as `2` or, from a sloppy writer, as `2.0`.
    func decodeInt(_ names: [String]) throws -> Int {
        guard let key = presentKey(names) else {
            throw DecodingError.keyNotFound(JSONKey(names[0]), .init(
                codingPath: codingPath, debugDescription: "missing"))
        }
        if let value = try? decode(Int.self, forKey: key) { return value }
        let number = try decode(Double.self, forKey: key)
        guard number.rounded() == number, let value = Int(exactly: number) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "expected a whole number, found \(number)")
        }
        return value
    }

    /// Money: JSON doubles such as `50000.0` or `6.0E7` (integers are accepted too).
    func decodeMoney(_ names: [String]) throws -> Double {
        let value = try decode(Double.self, names)
        guard value.isFinite else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath + [JSONKey(names[0])], debugDescription: "not a finite number"))
        }
        return value
    }

    func decodeDate(_ names: [String]) throws -> Date {
        guard let key = presentKey(names) else {
            throw DecodingError.keyNotFound(JSONKey(names[0]), .init(
                codingPath: codingPath, debugDescription: "missing"))
        }
        return try decodeDate(forKey: key)
    }

    func decodeDateIfPresent(_ names: [String]) throws -> Date? {
        guard let key = presentKey(names), try !decodeNil(forKey: key) else { return nil }
        return try decodeDate(forKey: key)
    }

    private func decodeDate(forKey key: JSONKey) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let date = OpenMarketJSON.parseDate(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "not a date: \"\(text.prefix(40))\"")
        }
        return date
    }
}

extension KeyedEncodingContainer where Key == JSONKey {
    mutating func encodeDate(_ date: Date, _ name: String, _ dialect: Dialect) throws {
        try encode(OpenMarketJSON.formatDate(date, dialect: dialect), forKey: JSONKey(name))
    }

    mutating func encodeDateIfPresent(_ date: Date?, _ name: String, _ dialect: Dialect) throws {
        if let date { try encodeDate(date, name, dialect) }
    }
}

extension CodingUserInfoKey {
    /// Set to a `Dialect` in an encoder's `userInfo` to choose the key casing and date format
    /// the models are written in (default v2a).
    public static var openMarketDialect: CodingUserInfoKey {
        CodingUserInfoKey(rawValue: "OpenMarketDialect")!
    }
}

extension Encoder {
    var openMarketDialect: Dialect {
        userInfo[.openMarketDialect] as? Dialect ?? .v2a
    }
}
