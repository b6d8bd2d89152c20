/// Writes JSON text by hand, so key order, casing and number forms are exactly those of the real
/// server (JSONEncoder can neither keep key order nor write `6.0E7`).
struct JSONText {
    private(set) var text = ""
    private var needsComma: [Bool] = [false]

    init(capacity: Int = 512) { text.reserveCapacity(capacity) }

    mutating func beginObject() { separate(); text.append("{"); needsComma.append(false) }
    mutating func endObject() { needsComma.removeLast(); text.append("}") }
    mutating func beginArray() { separate(); text.append("["); needsComma.append(false) }
    mutating func endArray() { needsComma.removeLast(); text.append("]") }

    /// Starts a member: the next value written belongs to `name`.
    mutating func key(_ name: String) {
        separate()
        Self.appendQuoted(name, to: &text)
        text.append(":")
        needsComma[needsComma.count - 1] = false
    }

    mutating func string(_ value: String) { separate(); Self.appendQuoted(value, to: &text) }
    mutating func int(_ value: Int) { separate(); text.append(String(value)) }
    mutating func money(_ value: Double) { separate(); text.append(JavaDouble.format(value)) }
    mutating func bool(_ value: Bool) { separate(); text.append(value ? "true" : "false") }
    /// A number already written in its final form (v1 epoch seconds).
    mutating func raw(_ literal: String) { separate(); text.append(literal) }

    mutating func member(_ name: String, _ value: String) { key(name); string(value) }
    mutating func member(_ name: String, _ value: Int) { key(name); int(value) }
    mutating func member(_ name: String, money value: Double) { key(name); money(value) }
    mutating func member(_ name: String, _ value: Bool) { key(name); bool(value) }

    /// Commas go before every element but the first of its container.
    private mutating func separate() {
        if needsComma[needsComma.count - 1] { text.append(",") }
        needsComma[needsComma.count - 1] = true
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped; the rest as is
    /// (like Jackson: no escaping of "/" or non-ASCII).
    static func appendQuoted(_ value: String, to text: inout String) {
        text.append("\"")
        // Most strings need no escaping at all: copy them in one go.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            text.append(value)
            text.append("\"")
            return
        }
        var plainStart = value.unicodeScalars.startIndex
        var index = plainStart
        let scalars = value.unicodeScalars
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let escape: String?
            switch scalar {
            case "\"": escape = "\\\""
            case "\\": escape = "\\\\"
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            case "\u{08}": escape = "\\b"
            case "\u{0C}": escape = "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    escape = nil
                }
            }
            if let escape {
                text.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
                text.append(escape)
                plainStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        text.unicodeScalars.append(contentsOf: scalars[plainStart..<scalars.endIndex])
        text.append("\"")
    }
}
