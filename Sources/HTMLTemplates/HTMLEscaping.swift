/// Escapes the five characters that can change meaning in HTML text or a quoted attribute.
public enum HTMLEscaping {
    static func append(_ text: String, to output: inout String) {
        let utf8 = text.utf8
        // Fast path: most values (names, prices, ids) need no escaping at all.
        guard utf8.contains(where: needsEscape) else {
            output += text
            return
        }
        var runStart = utf8.startIndex
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if needsEscape(byte) {
                output += text[runStart..<index]
                output += entity(for: byte)
                runStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        output += text[runStart..<utf8.endIndex]
    }

    public static func escape(_ text: String) -> String {
        var output = ""
        append(text, to: &output)
        return output
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    private static func entity(for byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "&"): return "&amp;"
        case UInt8(ascii: "<"): return "&lt;"
        case UInt8(ascii: ">"): return "&gt;"
        case UInt8(ascii: "\""): return "&quot;"
        default: return "&#39;"
        }
    }
}
