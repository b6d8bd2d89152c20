/// Percent-decoding, applied exactly once to each path segment and query item.
enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as space for form data). Returns nil for a malformed
    /// escape or for bytes that are not valid UTF-8, so callers can refuse the input.
    static func decode(_ s: Substring, plusAsSpace: Bool = false) -> String? {
        let utf8 = s.utf8
        guard utf8.contains(ASCII.percent) || (plusAsSpace && utf8.contains(UInt8(ascii: "+"))) else {
            return String(s)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var i = utf8.startIndex
        while i != utf8.endIndex {
            let b = utf8[i]
            if b == ASCII.percent {
                let h = utf8.index(after: i)
                guard h != utf8.endIndex, let hi = ASCII.hexValue(utf8[h]) else { return nil }
                let l = utf8.index(after: h)
                guard l != utf8.endIndex, let lo = ASCII.hexValue(utf8[l]) else { return nil }
                bytes.append(UInt8(hi * 16 + lo))
                i = utf8.index(after: l)
            } else {
                bytes.append(plusAsSpace && b == UInt8(ascii: "+") ? ASCII.space : b)
                i = utf8.index(after: i)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Splits `a=1&b=2` into decoded pairs. Items that do not decode are kept raw rather than
    /// failing the whole request: a query string is user input, not a protocol error.
    static func queryItems(_ query: Substring) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = pieces[0]
            let rawValue = pieces.count > 1 ? pieces[1] : ""
            let name = decode(rawName, plusAsSpace: true) ?? String(rawName)
            let value = decode(rawValue, plusAsSpace: true) ?? String(rawValue)
            items.append((name, value))
        }
        return items
    }
}
