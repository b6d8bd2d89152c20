import Foundation

/// Reads the members of one JSON object by any of their dialect spellings, and reports a broken
/// answer as `.undecodable` with the key path (`pages[3].price`). Each model's `init(reading:)`
/// is its one decoder; `Decodable` goes through it too (see `DecodableModel`).
struct JSONObjectReader {
    private let members: [String: JSONValue]
    /// The path of this object itself ("" for the document).
    let path: String

    init(_ value: JSONValue, path: String) throws(OpenMarketError) {
        switch value {
        case .object(let members):
            self.members = members
            self.path = path
        case .null:
            throw .undecodable(path: path, reason: "null where a value is required")
        default:
            throw .undecodable(path: path, reason: "expected an object")
        }
    }

    func contains(_ key: String) -> Bool { members[key] != nil }

    private func childPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// The first spelling present (null included); a missing key is reported by its first spelling.
    private func required(_ names: [String]) throws(OpenMarketError) -> (path: String, value: JSONValue) {
        for name in names {
            if let value = members[name] {
                if case .null = value {
                    throw .undecodable(path: childPath(name), reason: "null where a value is required")
                }
                return (childPath(name), value)
            }
        }
        throw .undecodable(path: childPath(names[0]), reason: "missing")
    }

    /// The first spelling present; nil when absent or null.
    private func optional(_ names: [String]) -> (path: String, value: JSONValue)? {
        for name in names {
            if let value = members[name] {
                if case .null = value { return nil }
                return (childPath(name), value)
            }
        }
        return nil
    }

    // MARK: typed members

    func int(_ names: [String]) throws(OpenMarketError) -> Int {
        let (path, value) = try required(names)
        return try Self.int(value, path)
    }

    func money(_ names: [String]) throws(OpenMarketError) -> Double {
        let (path, value) = try required(names)
        guard case .number(let number, _) = value else { throw .undecodable(path: path, reason: "expected a number") }
        // Beyond any Double (a lenient parse keeps it as infinity): no price to show or compute with.
        guard number.isFinite else { throw .undecodable(path: path, reason: "a number beyond any amount") }
        return number
    }

    func string(_ names: [String]) throws(OpenMarketError) -> String {
        let (path, value) = try required(names)
        return try Self.string(value, path)
    }

    func optionalString(_ names: [String]) throws(OpenMarketError) -> String? {
        guard let (path, value) = optional(names) else { return nil }
        return try Self.string(value, path)
    }

    func bool(_ names: [String]) throws(OpenMarketError) -> Bool {
        let (path, value) = try required(names)
        return try Self.bool(value, path)
    }

    func optionalBool(_ names: [String]) throws(OpenMarketError) -> Bool? {
        guard let (path, value) = optional(names) else { return nil }
        return try Self.bool(value, path)
    }

    func date(_ names: [String]) throws(OpenMarketError) -> Date {
        let (path, value) = try required(names)
        return try Self.date(value, path)
    }

    func optionalDate(_ names: [String]) throws(OpenMarketError) -> Date? {
        guard let (path, value) = optional(names) else { return nil }
        return try Self.date(value, path)
    }

    func currency(_ names: [String]) throws(OpenMarketError) -> Currency {
        let (path, value) = try required(names)
        guard case .string(let text) = value else { throw .undecodable(path: path, reason: "expected KRW or USD") }
        guard let currency = Currency(rawValue: text) else {
            throw .undecodable(path: path, reason: "expected KRW or USD, found \"\(text.prefix(20))\"")
        }
        return currency
    }

    /// A list member's elements, with the list's path.
    func array(_ names: [String]) throws(OpenMarketError) -> (path: String, elements: [JSONValue]) {
        let (path, value) = try required(names)
        guard case .array(let elements) = value else { throw .undecodable(path: path, reason: "expected a list") }
        return (path, elements)
    }

    /// Each element of a list of objects, with its path (`pages[3]`).
    func objects(_ names: [String]) throws(OpenMarketError) -> [JSONObjectReader] {
        let (path, elements) = try array(names)
        var readers: [JSONObjectReader] = []
        readers.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            readers.append(try JSONObjectReader(element, path: "\(path)[\(index)]"))
        }
        return readers
    }

    func optionalObject(_ names: [String]) throws(OpenMarketError) -> JSONObjectReader? {
        guard let (path, value) = optional(names) else { return nil }
        return try JSONObjectReader(value, path: path)
    }

    /// A list of strings (v1 `thumbnails`, `images`).
    func strings(_ names: [String]) throws(OpenMarketError) -> [String] {
        let (path, value) = try required(names)
        guard case .array(let elements) = value else { throw .undecodable(path: path, reason: "expected a list") }
        var texts: [String] = []
        texts.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            texts.append(try Self.string(element, "\(path)[\(index)]"))
        }
        return texts
    }

    func optionalInt(_ names: [String]) throws(OpenMarketError) -> Int? {
        guard let (path, value) = optional(names) else { return nil }
        return try Self.int(value, path)
    }

    /// A time written as Unix epoch seconds with a fraction (v1 `registration_date`).
    func epochSeconds(_ names: [String]) throws(OpenMarketError) -> Date {
        let (path, value) = try required(names)
        // Years 0001…9999 only: dates outside cannot be written or shown, and arithmetic on them overflows.
        guard case .number(let seconds, _) = value, seconds.isFinite, abs(seconds) < 253_402_300_800 else {
            throw .undecodable(path: path, reason: "expected seconds since 1970 as a number")
        }
        return Date(timeIntervalSince1970: seconds)
    }

    // MARK: conversions

    private static func int(_ value: JSONValue, _ path: String) throws(OpenMarketError) -> Int {
        guard case .number(let number, let integer) = value else { throw .undecodable(path: path, reason: "expected a number") }
        if let integer { return integer }
        // A sloppy writer's `2.0` is still the whole number 2.
        guard number.rounded() == number, let whole = Int(exactly: number) else {
            throw .undecodable(path: path, reason: "expected a whole number, found \(number)")
        }
        return whole
    }

    private static func string(_ value: JSONValue, _ path: String) throws(OpenMarketError) -> String {
        guard case .string(let text) = value else { throw .undecodable(path: path, reason: "expected a string") }
        return text
    }

    private static func bool(_ value: JSONValue, _ path: String) throws(OpenMarketError) -> Bool {
        guard case .bool(let flag) = value else { throw .undecodable(path: path, reason: "expected true or false") }
        return flag
    }

    private static func date(_ value: JSONValue, _ path: String) throws(OpenMarketError) -> Date {
        let text = try string(value, path)
        guard let date = OpenMarketJSON.parseDate(text) else {
            throw .undecodable(path: path, reason: "not a date: \"\(text.prefix(40))\"")
        }
        return date
    }
}
