import Foundation

/// The JSON lexer shared by the tree parser (`JSONValue.parse`) and the model reader
/// (`JSONObjectReader`): a position in a byte buffer and the RFC 8259 rules for each kind of
/// token. It reads a value two ways: into Swift values (`string()`, `number()`), or only past it,
/// checking its syntax without building anything (`skipValue`). The model reader skips the
/// members no model reads, and builds only the ones it reads, straight into the models.
///
/// Invalid UTF-8 inside a string is repaired (U+FFFD) rather than refused: a product name with
/// one bad byte should not hide a whole page. `lenient` is for answers of a server we do not
/// control: a number beyond any `Double` becomes ±infinity and a lone surrogate escape U+FFFD, so
/// one odd value makes one product unreadable instead of the whole page. Strict, they are
/// syntax errors (the sandbox reading request bodies).
///
/// The buffer is borrowed: a cursor lives only inside the `withUnsafeBytes` that lent it.
/// Raw memory on purpose: the answer is read where `Data` holds it (no copy into an array per
/// answer), indices are checked by the cursor's own `index < bytes.count` tests rather than
/// again by a checked subscript, and strings are made from slices without copies. A stored
/// `Span` would need the experimental lifetime annotations. Misuse is caught by the
/// `client-json`, `v1-json` and `panel-answers` fuzz targets (ASan, every truncation of every
/// fixture) and by `JSONParserTests` and `JSONObjectReaderTests` under ASan.
struct JSONCursor {
    struct SyntaxError: Error {}

    let bytes: UnsafeBufferPointer<UInt8>
    let lenient: Bool
    var index = 0
    /// Nesting deeper than this is refused, so hostile input cannot exhaust the stack.
    static let maxDepth = 100

    init(bytes: UnsafeBufferPointer<UInt8>, lenient: Bool, at index: Int = 0) {
        self.bytes = bytes
        self.lenient = lenient
        self.index = index
    }

    var atEnd: Bool { index >= bytes.count }

    /// The byte at the cursor (0 at the end: no JSON token starts with it).
    var current: UInt8 { index < bytes.count ? bytes[index] : 0 }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw SyntaxError() }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw SyntaxError()
        }
        index += count
    }

    mutating func expect(_ byte: UInt8) throws(SyntaxError) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { throw SyntaxError() }
        index += 1
    }

    // MARK: skipping

    /// Moves past one value (whitespace before it included), checking its syntax exactly as
    /// reading it would, without building it. `depth` is the value's own nesting depth.
    mutating func skipValue(depth: Int) throws(SyntaxError) {
        guard depth < Self.maxDepth else { throw SyntaxError() }
        skipWhitespace()
        guard index < bytes.count else { throw SyntaxError() }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "}") { index += 1; return }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw SyntaxError() }
                _ = try skipString()
                try expect(UInt8(ascii: ":"))
                try skipValue(depth: depth + 1)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"): index += 1; return
                default: throw SyntaxError()
                }
            }
        case UInt8(ascii: "["):
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "]") { index += 1; return }
            while true {
                try skipValue(depth: depth + 1)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"): index += 1; return
                default: throw SyntaxError()
                }
            }
        case UInt8(ascii: "\""): _ = try skipString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: try skipNumber()
        }
    }

    /// Moves past a value of a document whose syntax was already checked (whitespace before it
    /// included): only where it ends is found, nothing is checked again. Strings are crossed with
    /// `memchr` to their closing quote, so the second look at a large list costs little.
    mutating func skipCheckedValue() {
        skipWhitespace()
        var depth = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                skipCheckedString()
                if depth == 0 { return }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return }   // the end of the enclosing container, not this value's
                depth -= 1
                if depth == 0 { index += 1; return }
            case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                if depth == 0 { return }   // the end of a number or literal
            default:
                break
            }
            index += 1
        }
    }

    /// Moves past a checked string (cursor at its opening quote): to the first quote not escaped.
    mutating func skipCheckedString() {
        index += 1
        while index < bytes.count {
            guard let base = bytes.baseAddress,
                  let hit = memchr(base + index, Int32(UInt8(ascii: "\"")), bytes.count - index) else {
                index = bytes.count
                return
            }
            let quote = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            // Escaped when an odd number of backslashes comes right before it.
            var backslashes = 0
            while quote - backslashes - 1 >= index, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            index = quote + 1
            if backslashes % 2 == 0 { return }
        }
    }

    /// Moves past a string starting at its opening quote. Returns whether its raw bytes are its
    /// text (true: no escape, all ASCII), so a key can be compared without decoding it.
    mutating func skipString() throws(SyntaxError) -> Bool {
        let start = index
        index += 1   // "
        var plainASCII = skipPlainWords()
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { index += 1; return plainASCII }
            if byte == UInt8(ascii: "\\") {
                // Rare: the escapes are checked by decoding them (the text is dropped).
                index = start
                _ = try string()
                return false
            }
            guard byte >= 0x20 else { throw SyntaxError() }
            if byte >= 0x80 { plainASCII = false }
            index += 1
        }
        throw SyntaxError()
    }

    /// Moves over a string's text eight bytes at a time while none of them ends it or needs a
    /// look of its own (a quote, a backslash, a control byte); the byte loop goes on from there.
    /// Most of a list page's bytes are string text, and this is about three times fewer
    /// instructions per byte than the loop. An 8-byte load where one byte at a time is checked
    /// elsewhere: `index + 8 <= bytes.count` keeps it inside the buffer (caught by the fuzz
    /// targets and `JSONObjectReaderTests`' strings cut at every byte, under ASan). Returns
    /// whether the bytes moved over are all ASCII.
    @discardableResult
    private mutating func skipPlainWords() -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var nonASCII: UInt64 = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if Self.hasByteToLookAt(word) { break }
            nonASCII |= word
            index += 8
        }
        return nonASCII & Self.highBits == 0
    }

    private static let lowBits: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether any byte of `word` is `"`, `\` or below 0x20. The usual word-at-a-time tests:
    /// `(x - 0x01…) & ~x & 0x80…` is non-zero exactly when some byte of x is 0 (and with 0x20…,
    /// when some byte is below 0x20); a byte equal to c is a zero byte of `word ^ c…`.
    private static func hasByteToLookAt(_ word: UInt64) -> Bool {
        func hasZeroByte(_ x: UInt64) -> Bool { (x &- lowBits) & ~x & highBits != 0 }
        let belowSpace = (word &- lowBits &* 0x20) & ~word & highBits != 0
        return belowSpace || hasZeroByte(word ^ (lowBits &* 0x22)) || hasZeroByte(word ^ (lowBits &* 0x5C))
    }

    private mutating func skipNumber() throws(SyntaxError) {
        let start = index
        try scanNumber()
        // Strict, a number beyond any Double is an error: only converting it tells.
        if !lenient {
            index = start
            _ = try number()
        }
    }

    // MARK: reading

    /// A string starting at the opening quote. Without escapes the bytes are taken as they
    /// are; escapes (including surrogate pairs) are decoded into a scratch buffer.
    mutating func string() throws(SyntaxError) -> String {
        index += 1   // "
        let start = index
        skipPlainWords()
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

    /// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`, checked strictly. `integer` is set
    /// when the literal has no fraction or exponent and fits an `Int`.
    mutating func number() throws(SyntaxError) -> (value: Double, integer: Int?) {
        let start = index
        let isInteger = try scanNumber()
        let literal = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if isInteger, let integer = Self.integer(literal) { return (Double(integer), integer) }
        if let decimal = Self.shortDecimal(literal) { return (decimal, nil) }
        let text = String(decoding: literal, as: UTF8.self)
        guard let double = Double(text), double.isFinite || lenient else { throw SyntaxError() }
        return (double, nil)
    }

    /// Moves past a number's literal, checking its grammar; true when it has no fraction or exponent.
    @discardableResult
    private mutating func scanNumber() throws(SyntaxError) -> Bool {
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 }
        if current == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { throw SyntaxError() }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) { index += 1 }
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard isDigit(index) else { throw SyntaxError() }
            while isDigit(index) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw SyntaxError() }
            while isDigit(index) { index += 1 }
        }
        return isInteger
    }

    /// A checked literal with a fraction and no exponent of at most 15 digits (`12000.0`,
    /// `-0.99`), exactly as `Double(text)` reads it: the digits as a whole number and one division
    /// by a power of ten, both exact in a `Double`, give the correctly rounded value. Nil for
    /// anything else (the string conversion handles it).
    private static func shortDecimal(_ literal: UnsafeBufferPointer<UInt8>) -> Double? {
        var digits = literal[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        var mantissa: Int64 = 0
        var count = 0
        var scale = -1
        for byte in digits {
            if byte == UInt8(ascii: ".") { scale = 0; continue }
            guard byte >= 0x30, byte <= 0x39 else { return nil }   // an exponent
            mantissa = mantissa * 10 + Int64(byte - 0x30)
            count += 1
            if scale >= 0 { scale += 1 }
            if count > 15 { return nil }
        }
        guard scale > 0 else { return nil }
        let value = Double(mantissa) / powersOfTen[scale]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...15).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// A checked integer literal (`-?[0-9]+`) as an `Int`; nil when it does not fit (what `Int(text)` does).
    private static func integer(_ literal: UnsafeBufferPointer<UInt8>) -> Int? {
        var digits = literal[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        var value = 0
        for byte in digits {
            let digit = Int(byte &- 0x30)
            // Accumulated negatively so Int.min fits.
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = shifted.subtractingReportingOverflow(digit)
            if overflowA || overflowB { return nil }
            value = next
        }
        if negative { return value }
        return value == Int.min ? nil : -value
    }
}
