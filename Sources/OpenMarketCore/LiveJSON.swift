import Foundation

/// Writes JSON exactly as the live servers did, so a stand-in server (the sandbox) can give
/// third-party clients the same bytes to chew on: keys in the live order, money as Java doubles
/// (`50000.0`, `6.0E7`), `/` and non-ASCII written as is. Compact (no spaces).
enum LiveJSON {
    indirect case object([(String, LiveJSON)])
    case array([LiveJSON])
    case string(String)
    case integer(Int)
    case money(Double)
    case bool(Bool)
    case null

    var data: Data {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(to: &out)
        return Data(out)
    }

    // Written byte by byte into one buffer: the sandbox writes a page per list request.
    private func write(to out: inout [UInt8]) {
        switch self {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let text): Self.writeString(text, to: &out)
        case .integer(let value): out.append(contentsOf: String(value).utf8)
        case .money(let value): out.append(contentsOf: Self.javaDouble(value).utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        }
    }

    /// A JSON string: `"` and `\` and control characters escaped, U+2028/U+2029 escaped (they
    /// end lines in JavaScript), everything else (`/`, Korean, emoji) as UTF-8.
    private static func writeString(_ text: String, to out: inout [UInt8]) {
        let hexDigits = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        var bytes = text.utf8.makeIterator()
        var pending: UInt8? = nil
        while let byte = pending ?? bytes.next() {
            pending = nil
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x00...0x1F:
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
            case 0xE2:
                // U+2028 / U+2029 are E2 80 A8 / E2 80 A9.
                guard let second = bytes.next() else { out.append(byte); break }
                guard second == 0x80, let third = bytes.next() else { out.append(byte); pending = second; break }
                if third == 0xA8 || third == 0xA9 {
                    out.append(contentsOf: "\\u202".utf8)
                    out.append(third == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9"))
                } else {
                    out.append(contentsOf: [byte, second])
                    pending = third
                }
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Java's `Double.toString`: plain decimal with at least one fraction digit for
    /// 10^-3 ≤ |v| < 10^7 (`50000.0`, `12.5`), otherwise `d.dddE±n` (`6.0E7`, `1.0E-4`), using the
    /// shortest digits that read back as the same double. Non-finite values (never valid money)
    /// are written as `null` rather than as invalid JSON.
    static func javaDouble(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        let magnitude = abs(value)
        // The common case (whole amounts under ten million) without digit juggling.
        if magnitude < 1e7, value.rounded() == value { return String(Int(value)) + ".0" }
        let sign = value < 0 ? "-" : ""
        let (digits, exponent) = shortestDigits(magnitude)   // value = 0.d1d2d3… × 10^exponent
        if magnitude >= 1e-3 && magnitude < 1e7 {
            let integerCount = exponent
            if integerCount <= 0 {
                return sign + "0." + String(repeating: "0", count: -integerCount) + digits
            }
            let padded = digits + String(repeating: "0", count: max(0, integerCount - digits.count))
            let integerPart = padded.prefix(integerCount)
            let fraction = padded.dropFirst(integerCount)
            return sign + integerPart + "." + (fraction.isEmpty ? "0" : fraction)
        }
        let first = digits.prefix(1)
        let rest = digits.dropFirst()
        return sign + first + "." + (rest.isEmpty ? "0" : rest) + "E" + String(exponent - 1)
    }

    /// The shortest round-trip decimal digits of a positive finite double (from Swift's own
    /// shortest representation), without leading/trailing zeros, and the decimal exponent such
    /// that value = 0.DIGITS × 10^exponent.
    private static func shortestDigits(_ value: Double) -> (String, Int) {
        let text = "\(value)"   // e.g. "60000000.0", "1e-05", "1.2345e+16"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...].replacingOccurrences(of: "+", with: "")) ?? 0
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let integerPart = String(parts[0])
        let fractionPart = parts.count > 1 ? String(parts[1]) : ""
        var digits = integerPart + fractionPart
        var pointPosition = integerPart.count + exponent
        while digits.hasPrefix("0") { digits.removeFirst(); pointPosition -= 1 }
        while digits.hasSuffix("0") { digits.removeLast() }
        return (digits.isEmpty ? "0" : digits, pointPosition)
    }
}

extension LiveJSON {
    private static func date(_ date: Date, _ dialect: Dialect) -> LiveJSON {
        .string(OpenMarketJSON.formatDate(date, dialect: dialect))
    }

    static func listPage(_ page: ProductListPage, _ dialect: Dialect) -> LiveJSON {
        let items = LiveJSON.array(page.pages.map { listItem($0, dialect) })
        switch dialect {
        case .v2a:
            return .object([
                ("page_no", .integer(page.pageNo)), ("items_per_page", .integer(page.itemsPerPage)),
                ("total_count", .integer(page.totalCount)), ("offset", .integer(page.offset)),
                ("limit", .integer(page.limit)), ("pages", items), ("last_page", .integer(page.lastPage)),
                ("has_next", .bool(page.hasNext)), ("has_prev", .bool(page.hasPrev)),
            ])
        case .v2b:
            return .object([
                ("pageNo", .integer(page.pageNo)), ("itemsPerPage", .integer(page.itemsPerPage)),
                ("totalCount", .integer(page.totalCount)), ("offset", .integer(page.offset)),
                ("limit", .integer(page.limit)), ("lastPage", .integer(page.lastPage)),
                ("hasNext", .bool(page.hasNext)), ("hasPrev", .bool(page.hasPrev)), ("pages", items),
            ])
        }
    }

    static func listItem(_ item: ProductListItem, _ dialect: Dialect) -> LiveJSON {
        var members: [(String, LiveJSON)] = [("id", .integer(item.id)), ("vendor_id", .integer(item.vendorID))]
        if dialect == .v2b, let vendorName = item.vendorName { members.append(("vendorName", .string(vendorName))) }
        members.append(("name", .string(item.name)))
        if dialect == .v2b, let description = item.description { members.append(("description", .string(description))) }
        members += [
            ("thumbnail", .string(item.thumbnail)), ("currency", .string(item.currency.rawValue)),
            ("price", .money(item.price)), ("bargain_price", .money(item.bargainPrice)),
            ("discounted_price", .money(item.discountedPrice)), ("stock", .integer(item.stock)),
            ("created_at", date(item.createdAt, dialect)), ("issued_at", date(item.issuedAt, dialect)),
        ]
        return .object(members)
    }

    static func detail(_ detail: ProductDetail, _ dialect: Dialect) -> LiveJSON {
        var members: [(String, LiveJSON)] = [
            ("id", .integer(detail.id)), ("vendor_id", .integer(detail.vendorID)), ("name", .string(detail.name)),
        ]
        // v2a wrote the description after the price, v2b right after the name.
        if dialect == .v2b { members.append(("description", .string(detail.description))) }
        members += [("thumbnail", .string(detail.thumbnail)), ("currency", .string(detail.currency.rawValue)),
                    ("price", .money(detail.price))]
        if dialect == .v2a { members.append(("description", .string(detail.description))) }
        members += [
            ("bargain_price", .money(detail.bargainPrice)), ("discounted_price", .money(detail.discountedPrice)),
            ("stock", .integer(detail.stock)), ("created_at", date(detail.createdAt, dialect)),
            ("issued_at", date(detail.issuedAt, dialect)),
            ("images", .array(detail.images.map { image($0, dialect) })),
        ]
        if let vendor = detail.vendor { members.append(("vendors", Self.vendor(vendor, dialect))) }
        return .object(members)
    }

    static func image(_ image: ProductImage, _ dialect: Dialect) -> LiveJSON {
        var members: [(String, LiveJSON)] = [
            ("id", .integer(image.id)), ("url", .string(image.url)), ("thumbnail_url", .string(image.thumbnailURL)),
        ]
        if dialect == .v2a { members.append(("succeed", .bool(image.succeed ?? true))) }
        if let issuedAt = image.issuedAt { members.append(("issued_at", date(issuedAt, dialect))) }
        return .object(members)
    }

    static func vendor(_ vendor: Vendor, _ dialect: Dialect) -> LiveJSON {
        switch dialect {
        case .v2a:
            var members: [(String, LiveJSON)] = [("name", .string(vendor.name)), ("id", .integer(vendor.id))]
            if let createdAt = vendor.createdAt { members.append(("created_at", date(createdAt, dialect))) }
            if let issuedAt = vendor.issuedAt { members.append(("issued_at", date(issuedAt, dialect))) }
            return .object(members)
        case .v2b:
            return .object([("id", .integer(vendor.id)), ("name", .string(vendor.name))])
        }
    }
}
