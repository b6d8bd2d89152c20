/// Percent-encoding of a string's UTF-8 bytes (RFC 3986 §2.1, uppercase hex): each caller says
/// which bytes stay literal (URL query values, v2b archive paths, multipart filenames).
enum PercentEncoding {
    static func encode(_ text: String, keeping keep: (UInt8) -> Bool) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keep(byte) {
                result.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                result.unicodeScalars.append(contentsOf: ["%", hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
            }
        }
        return result
    }

    private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

    /// RFC 3986 unreserved: ALPHA, DIGIT, `-`, `.`, `_`, `~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
