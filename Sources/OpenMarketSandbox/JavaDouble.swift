import OpenMarketCore

/// Formats a Double the way Java's `Double.toString` did on the real server (Jackson wrote
/// doubles with it): always a fraction (`50000.0`), and "computerized scientific notation" outside
/// 10^-3 ≤ |x| < 10^7 (`6.0E7`, `5.99995E7`, `1.0E-4`). Digits are the shortest that round-trip.
enum JavaDouble {
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity") }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        // Fast path for the common case (whole amounts below 10^7): "50000.0".
        if value.magnitude >= 1 && value.magnitude < 1e7 && value.rounded(.towardZero) == value {
            return (WholeNumber.plainDigits(value) ?? String(value)) + ".0"
        }
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        let (digits, pointPosition) = shortestDigits(magnitude)

        if magnitude >= 1e-3 && magnitude < 1e7 {
            if pointPosition <= 0 {
                return sign + "0." + String(repeating: "0", count: -pointPosition) + digits
            }
            if pointPosition >= digits.count {
                return sign + digits + String(repeating: "0", count: pointPosition - digits.count) + ".0"
            }
            let split = digits.index(digits.startIndex, offsetBy: pointPosition)
            return sign + digits[..<split] + "." + digits[split...]
        }
        let first = digits.prefix(1)
        let rest = digits.dropFirst()
        return sign + first + "." + (rest.isEmpty ? "0" : rest) + "E" + String(pointPosition - 1)
    }

    /// The shortest round-tripping decimal digits of `magnitude` (no leading or trailing zeros)
    /// and where the decimal point goes: value = 0.DIGITS × 10^pointPosition.
    /// Swift's `description` already yields the shortest digits; this only re-reads its layout
    /// ("123.45", "1e-05", "1.5e+16").
    static func shortestDigits(_ magnitude: Double) -> (digits: String, pointPosition: Int) {
        let text = magnitude.description
        let parts = text.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integerPart = String(mantissa[0])
        let fractionPart = mantissa.count == 2 ? String(mantissa[1]) : ""
        var digits = Substring(integerPart + fractionPart)
        var pointPosition = integerPart.count + exponent
        while digits.first == "0" {
            digits = digits.dropFirst()
            pointPosition -= 1
        }
        while digits.last == "0" { digits = digits.dropLast() }
        return (digits.isEmpty ? "0" : String(digits), pointPosition)
    }
}
