import Foundation

/// A parsed JSON document. The API answers are decoded from this tree by hand (see
/// `JSONObjectReader`) rather than through `JSONDecoder`: the panel decodes a list page on every
/// page view, and skipping the `Decodable` machinery makes that several times cheaper.
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
        let value: JSONValue? = data.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self), lenient: lenient)
            return try? parser.document()
        }
        guard let value else { throw SyntaxError() }
        return value
    }

    /// A recursive-descent parser over bytes (RFC 8259), depth-limited so hostile input cannot
    /// exhaust the stack. For duplicate keys the first one wins, as with `JSONDecoder`. Invalid
    /// UTF-8 inside a string is repaired (U+FFFD) rather than refused: a product name with one bad
    /// byte should not hide a whole page.
    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let lenient: Bool
        var index = 0
        static let maxDepth = 100

        mutating func document() throws(SyntaxError) -> JSONValue {
            let value = try value(depth: 0)
            skipWhitespace()
            guard index == bytes.count else { throw SyntaxError() }
            return value
        }

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        private mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth < Self.maxDepth else { throw SyntaxError() }
            skipWhitespace()
            guard index < bytes.count else { throw SyntaxError() }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return try number()
            }
        }

        private mutating func literal(_ word: StaticString) throws(SyntaxError) {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw SyntaxError() }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
                throw SyntaxError()
            }
            index += count
        }

        private mutating func expect(_ byte: UInt8) throws(SyntaxError) {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { throw SyntaxError() }
            index += 1
        }

        private mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
            index += 1   // {
            // Pairs first, then one dictionary of the right size: a key is hashed once and the
            // table never grows (this parse runs for every list page the panel shows).
            var members: [(String, JSONValue)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object([:]) }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw SyntaxError() }
                let key = try string()
                try expect(UInt8(ascii: ":"))
                let member = try value(depth: depth + 1)
                members.append((key, member))
                skipWhitespace()
                guard index < bytes.count else { throw SyntaxError() }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(Dictionary(members, uniquingKeysWith: { first, _ in first }))
                }
                throw SyntaxError()
            }
        }

        private mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
            index += 1   // [
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw SyntaxError() }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                throw SyntaxError()
            }
        }

        /// A string starting at the opening quote. Without escapes the bytes are taken as they
        /// are; escapes (including surrogate pairs) are decoded into a scratch buffer.
        private mutating func string() throws(SyntaxError) -> String {
            index += 1   // "
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
                guard byte >= 0x20 else { throw SyntaxError() }
                index += 1
            }
            throw SyntaxError()
        }

        private mutating func escapedString(from start: Int) throws(SyntaxError) -> String {
            var scratch = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: scratch, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw SyntaxError() }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escape)
                    case UInt8(ascii: "b"): scratch.append(0x08)
                    case UInt8(ascii: "f"): scratch.append(0x0C)
                    case UInt8(ascii: "n"): scratch.append(0x0A)
                    case UInt8(ascii: "r"): scratch.append(0x0D)
                    case UInt8(ascii: "t"): scratch.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800...0xDBFF).contains(scalar) {
                            // A high surrogate must be followed by an escaped low surrogate.
                            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                                let mark = index
                                index += 2
                                let low = try hex4()
                                if (0xDC00...0xDFFF).contains(low) {
                                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                                } else {
                                    guard lenient else { throw SyntaxError() }
                                    index = mark   // the next escape is read on its own
                                    scalar = 0xFFFD
                                }
                            } else {
                                guard lenient else { throw SyntaxError() }
                                scalar = 0xFFFD
                            }
                        }
                        if lenient, (0xDC00...0xDFFF).contains(scalar) { scalar = 0xFFFD }
                        guard let unicode = Unicode.Scalar(scalar) else { throw SyntaxError() }
                        scratch.append(contentsOf: String(Character(unicode)).utf8)
                    default:
                        throw SyntaxError()
                    }
                default:
                    guard byte >= 0x20 else { throw SyntaxError() }
                    scratch.append(byte)
                }
            }
            throw SyntaxError()
        }

        private mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw SyntaxError() }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw SyntaxError()
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`, checked strictly.
        private mutating func number() throws(SyntaxError) -> JSONValue {
            let start = index
            func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw SyntaxError() }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                while isDigit(index) { index += 1 }
            }
            var isInteger = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                guard isDigit(index) else { throw SyntaxError() }
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard isDigit(index) else { throw SyntaxError() }
                while isDigit(index) { index += 1 }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if isInteger, let integer = Int(text) { return .number(Double(integer), integer: integer) }
            guard let double = Double(text), double.isFinite || lenient else { throw SyntaxError() }
            return .number(double, integer: nil)
        }
    }
}
