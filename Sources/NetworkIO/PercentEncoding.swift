/// Percent-encoding on UTF-8 bytes: every byte a component may not hold becomes %XX.
/// Foundation's `addingPercentEncoding` bridges through NSString and CharacterSet; pages build
/// dozens of links each, so this walks the bytes once instead.
public enum PercentEncoding {
    /// RFC 3986 unreserved characters: safe anywhere, including a query's names and values.
    public static func isUnreserved(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// A path segment's characters (RFC 3986 `pchar` without `;`): unreserved and `!$&'()*+,=:@`.
    public static func isSegmentCharacter(_ b: UInt8) -> Bool {
        if isUnreserved(b) { return true }
        switch b {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
             UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: "="),
             UInt8(ascii: ":"), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }

    public static func encode(_ text: some StringProtocol, keeping keep: (UInt8) -> Bool = isUnreserved) -> String {
        let utf8 = text.utf8
        guard !utf8.allSatisfy(keep) else { return String(text) }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count * 3)
        for b in utf8 {
            if keep(b) {
                out.append(b)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
