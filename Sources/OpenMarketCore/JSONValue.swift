import Foundation

/// A parsed JSON document, for JSON whose shape is not a model's: the sandbox's request bodies,
/// error answers, quoted text answers, and `Decodable` (see `DecodableModel`). The API's models
/// are not read through this tree but straight from the bytes (`JSONObjectReader`); both use
/// the same lexer (`JSONCursor`).
/// `package`: the sandbox reads request bodies with the same parser; it is no public API.
package enum JSONValue {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    /// `integer` is set when the literal has no fraction or exponent and fits an `Int`.
    case number(Double, integer: Int?)
    case bool(Bool)
    case null

    package struct SyntaxError: Error {}

    /// Parses one JSON value filling the whole input (whitespace around it allowed).
    ///
    /// `lenient` is for reading answers of a server we do not control (the client core): a number
    /// beyond any `Double` becomes ±infinity and a lone surrogate escape U+FFFD, so one odd value
    /// makes one product unreadable instead of the whole page (the readers refuse those values
    /// where they matter). Strict, they are syntax errors (the sandbox reading request bodies).
    package static func parse(_ data: Data, lenient: Bool = false) throws(SyntaxError) -> JSONValue {
        // The tree parser shares `JSONCursor`, which reads the bytes where `Data` holds them.
        let value: JSONValue? = data.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self), lenient: lenient)
            return try? parser.document()
        }
        guard let value else { throw SyntaxError() }
        return value
    }

    /// A recursive-descent parser over bytes (RFC 8259; the tokens are `JSONCursor`'s), depth-limited
    /// so hostile input cannot exhaust the stack. For duplicate keys the first one wins, as with
    /// `JSONDecoder`.
    private struct Parser {
        var cursor: JSONCursor

        init(bytes: UnsafeBufferPointer<UInt8>, lenient: Bool) {
            cursor = JSONCursor(bytes: bytes, lenient: lenient)
        }

        mutating func document() throws(JSONCursor.SyntaxError) -> JSONValue {
            let value = try value(depth: 0)
            cursor.skipWhitespace()
            guard cursor.atEnd else { throw JSONCursor.SyntaxError() }
            return value
        }

        private mutating func value(depth: Int) throws(JSONCursor.SyntaxError) -> JSONValue {
            guard depth < JSONCursor.maxDepth else { throw JSONCursor.SyntaxError() }
            cursor.skipWhitespace()
            switch cursor.current {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try cursor.string())
            case UInt8(ascii: "t"): try cursor.literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try cursor.literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try cursor.literal("null"); return .null
            default:
                let (number, integer) = try cursor.number()
                return .number(number, integer: integer)
            }
        }

        private mutating func object(depth: Int) throws(JSONCursor.SyntaxError) -> JSONValue {
            cursor.index += 1   // {
            // Pairs first, then one dictionary of the right size: a key is hashed once and the
            // table never grows.
            var members: [(String, JSONValue)] = []
            cursor.skipWhitespace()
            if cursor.current == UInt8(ascii: "}") { cursor.index += 1; return .object([:]) }
            while true {
                cursor.skipWhitespace()
                guard cursor.current == UInt8(ascii: "\"") else { throw JSONCursor.SyntaxError() }
                let key = try cursor.string()
                try cursor.expect(UInt8(ascii: ":"))
                let member = try value(depth: depth + 1)
                members.append((key, member))
                cursor.skipWhitespace()
                switch cursor.current {
                case UInt8(ascii: ","): cursor.index += 1
                case UInt8(ascii: "}"):
                    cursor.index += 1
                    return .object(Dictionary(members, uniquingKeysWith: { first, _ in first }))
                default: throw JSONCursor.SyntaxError()
                }
            }
        }

        private mutating func array(depth: Int) throws(JSONCursor.SyntaxError) -> JSONValue {
            cursor.index += 1   // [
            var elements: [JSONValue] = []
            cursor.skipWhitespace()
            if cursor.current == UInt8(ascii: "]") { cursor.index += 1; return .array(elements) }
            while true {
                elements.append(try value(depth: depth + 1))
                cursor.skipWhitespace()
                switch cursor.current {
                case UInt8(ascii: ","): cursor.index += 1
                case UInt8(ascii: "]"): cursor.index += 1; return .array(elements)
                default: throw JSONCursor.SyntaxError()
                }
            }
        }
    }
}
