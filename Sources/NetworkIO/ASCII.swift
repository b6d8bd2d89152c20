/// Byte-level helpers shared by the parsers. HTTP syntax is ASCII; comparing bytes avoids
/// building and lowercasing Strings on the hot path.
public enum ASCII {
    public static let cr: UInt8 = 13, lf: UInt8 = 10, space: UInt8 = 32, tab: UInt8 = 9
    public static let colon: UInt8 = 58, semicolon: UInt8 = 59, percent: UInt8 = 37

    /// RFC 9110 `tchar`: the characters allowed in a method and a header name.
    /// Inlinable (like `isToken`) so callers in other modules get it specialized: called through
    /// generic witnesses per byte, it was a sixth of the panel's time serving a static file.
    @inlinable
    public static func isTokenChar(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    /// Bytes allowed inside a header value: visible ASCII, space, tab and obs-text.
    /// Excludes NUL, CR, LF, the other controls and DEL.
    @inlinable
    public static func isFieldValueChar(_ b: UInt8) -> Bool {
        b == tab || (b >= 0x20 && b != 0x7F)
    }

    @inlinable
    public static func lowercased(_ b: UInt8) -> UInt8 {
        (b >= 0x41 && b <= 0x5A) ? b | 0x20 : b
    }

    public static func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case 0x30...0x39: return Int(b - 0x30)
        case 0x41...0x46: return Int(b - 0x41 + 10)
        case 0x61...0x66: return Int(b - 0x61 + 10)
        default: return nil
        }
    }

    @inlinable
    public static func isToken(_ s: some StringProtocol) -> Bool {
        guard !s.isEmpty else { return false }
        for b in s.utf8 where !isTokenChar(b) { return false }
        return true
    }

    /// Case-insensitive equality of two ASCII names without allocating.
    @inlinable
    public static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        return zip(x, y).allSatisfy { lowercased($0) == lowercased($1) }
    }
}
