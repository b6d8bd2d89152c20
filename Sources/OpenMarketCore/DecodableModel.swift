import Foundation

/// `Decodable` for the API models, for Swift clients that use `JSONDecoder`. Each model's fields
/// are read in one place, its `init(reading:)`, which reads JSON bytes: here a decoder's value is
/// copied into a `JSONValue` tree, written back as JSON and handed to that reader, so both ways
/// of decoding cannot disagree. (Slow, and only for `JSONDecoder` users: the client reads the
/// answer's bytes directly.) A broken answer surfaces as `DecodingError.dataCorrupted` whose
/// `underlyingError` is the reader's `OpenMarketError.undecodable` (with the key path, e.g.
/// `pages[3].price`).
extension Decoder {
    func readModel<Model>(_ read: (JSONObjectReader) throws(OpenMarketError) -> Model) throws -> Model {
        let value = try JSONValue(decoding: self)
        do throws(OpenMarketError) {
            return try OpenMarketJSON.read(value.jsonData, path: OpenMarketJSON.keyPath(codingPath), read)
        } catch {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath, debugDescription: error.description, underlyingError: error))
        }
    }
}

extension JSONValue {
    /// The value written as JSON that parses back to the same value: whole numbers as integers,
    /// others in Swift's shortest round-trip form (an infinity, which only a lenient parse makes,
    /// as a literal beyond any `Double`).
    var jsonData: Data {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return Data(bytes)
    }

    private func write(into bytes: inout [UInt8]) {
        switch self {
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (offset, (key, value)) in members.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.writeString(key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                value.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .string(let text):
            Self.writeString(text, into: &bytes)
        case .number(let number, let integer):
            if let integer {
                bytes.append(contentsOf: String(integer).utf8)
            } else if number.isNaN {
                bytes.append(contentsOf: "null".utf8)
            } else if number.isInfinite {
                bytes.append(contentsOf: (number < 0 ? "-1e999" : "1e999").utf8)
            } else {
                bytes.append(contentsOf: "\(number)".utf8)
            }
        case .bool(let flag):
            bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null:
            bytes.append(contentsOf: "null".utf8)
        }
    }

    private static func writeString(_ text: String, into bytes: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0..<0x20:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
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
