import Foundation

/// `Decodable` for the API models, for Swift clients that use `JSONDecoder`. Each model's fields
/// are read in one place, its `init(reading:)`: here a decoder's value is first copied into a
/// `JSONValue` tree and then handed to that reader, so both ways of decoding cannot disagree.
/// A broken answer surfaces as `DecodingError.dataCorrupted` whose `underlyingError` is the
/// reader's `OpenMarketError.undecodable` (with the key path, e.g. `pages[3].price`).
extension Decoder {
    func readModel<Model>(_ read: (JSONObjectReader) throws(OpenMarketError) -> Model) throws -> Model {
        let value = try JSONValue(decoding: self)
        do throws(OpenMarketError) {
            return try read(JSONObjectReader(value, path: OpenMarketJSON.keyPath(codingPath)))
        } catch {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath, debugDescription: error.description, underlyingError: error))
        }
    }
}

extension JSONValue {
    /// The decoder's current value as a tree. Bool is tried before numbers so `true` never reads
    /// as 1; whole numbers keep their `Int` like the byte parser's.
    init(decoding decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() { self = .null; return }
            if let flag = try? single.decode(Bool.self) { self = .bool(flag); return }
            if let integer = try? single.decode(Int.self) { self = .number(Double(integer), integer: integer); return }
            if let number = try? single.decode(Double.self) { self = .number(number, integer: nil); return }
            if let text = try? single.decode(String.self) { self = .string(text); return }
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys {
                members[key.stringValue] = try JSONValue(decoding: try object.superDecoder(forKey: key))
            }
            self = .object(members)
            return
        }
        var list = try decoder.unkeyedContainer()
        var elements: [JSONValue] = []
        while !list.isAtEnd { elements.append(try JSONValue(decoding: try list.superDecoder())) }
        self = .array(elements)
    }
}

/// A coding key made from any string: the members of an object whose keys are not known ahead.
private struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
