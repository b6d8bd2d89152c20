/// A cell's value as the text a CSV of the same sheet would hold, so the import reads both alike.
enum CellText {
    /// A number as stored (`<v>`): a whole number without a decimal point (`12000`, never
    /// `12000.0`), anything else in the shortest form that reads back as the same double.
    static func number(_ stored: String) -> String {
        let trimmed = stored.trimmingSpaces()
        guard let value = Double(trimmed), value.isFinite else { return trimmed }
        if value == value.rounded(), let whole = Int64(exactly: value) { return String(whole) }
        return plainDecimal(value)
    }

    /// Swift's shortest round-trip digits, written out without an exponent where a spreadsheet
    /// would (0.00001, not 1e-05), for magnitudes a cell shows that way.
    private static func plainDecimal(_ value: Double) -> String {
        let shortest = "\(value)"
        guard let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }),
              let exponent = Int(shortest[shortest.index(after: e)...]), (-20...20).contains(exponent) else { return shortest }
        var mantissa = String(shortest[..<e])
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa.removeFirst() }
        let pointIndex = mantissa.firstIndex(of: ".")
        let integerDigits = pointIndex.map { mantissa[..<$0] } ?? Substring(mantissa)
        let fraction = pointIndex.map { mantissa[mantissa.index(after: $0)...] } ?? ""
        let digits = Array(integerDigits + fraction)
        let point = integerDigits.count + exponent
        var text: String
        if point <= 0 {
            text = "0." + String(repeating: "0", count: -point) + String(digits)
        } else if point >= digits.count {
            text = String(digits) + String(repeating: "0", count: point - digits.count)
        } else {
            text = String(digits[..<point]) + "." + String(digits[point...])
        }
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return (negative ? "-" : "") + text
    }

    /// A boolean as Excel writes it to CSV.
    static func boolean(_ stored: String) -> String {
        let value = stored.trimmingSpaces()
        return value == "1" || value.lowercased() == "true" ? "TRUE" : "FALSE"
    }

    /// A date cell (a serial day number) as ISO 8601: `2026-11-27`, or `2026-11-27 09:30:00` when
    /// it has a time of day. Serial 0 is 1899-12-31 (1900 system, where Excel counts a 29 February
    /// 1900 that never was) or 1904-01-01.
    static func date(_ stored: String, dates1904: Bool) -> String {
        guard let serial = Double(stored.trimmingSpaces()), serial.isFinite, serial >= 0, serial < 2_958_466 else {
            return number(stored)
        }
        var days = Int(serial.rounded(.down))
        var seconds = Int(((serial - Double(days)) * 86_400).rounded())
        if seconds >= 86_400 { days += 1; seconds -= 86_400 }
        // Days from 1970-01-01 to the serial's day.
        let unixDay: Int
        if dates1904 {
            unixDay = days - 24_107
        } else {
            // Serials up to 60 (29 Feb 1900, Excel's leap-year bug) are one day early.
            unixDay = days - (days < 61 ? 25_568 : 25_569)
        }
        let (year, month, day) = civilDate(fromUnixDay: unixDay)
        var text = "\(year)-\(twoDigits(month))-\(twoDigits(day))"
        if seconds > 0 {
            text += " \(twoDigits(seconds / 3600)):\(twoDigits(seconds / 60 % 60)):\(twoDigits(seconds % 60))"
        }
        return text
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// The proleptic Gregorian date of a day count from 1970-01-01 (Howard Hinnant's algorithm).
    private static func civilDate(fromUnixDay unixDay: Int) -> (Int, Int, Int) {
        let z = unixDay + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Text with OOXML's escapes undone: a character XML cannot carry (a control character, or
    /// a lone `_x…_` that is literal text) is written `_xHHHH_`, and `_x005F_` is an underscore.
    static func unescaped(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "_")) else { return text }
        var units: [UInt16] = []
        let source = Array(text.utf16)
        units.reserveCapacity(source.count)
        var index = 0
        while index < source.count {
            if source[index] == 0x5F, index + 6 < source.count, source[index + 1] == 0x78, source[index + 6] == 0x5F,
               let value = hexValue(source[(index + 2)...(index + 5)]) {
                units.append(value)
                index += 7
            } else {
                units.append(source[index])
                index += 1
            }
        }
        // A surrogate left unpaired by an escape becomes U+FFFD, as any decoder would make it.
        return String(decoding: units, as: UTF16.self)
    }

    private static func hexValue(_ units: ArraySlice<UInt16>) -> UInt16? {
        var value: UInt16 = 0
        for unit in units {
            let digit: UInt16
            switch unit {
            case 0x30...0x39: digit = unit - 0x30
            case 0x41...0x46: digit = unit - 0x41 + 10
            case 0x61...0x66: digit = unit - 0x61 + 10
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }
}

extension String {
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}
