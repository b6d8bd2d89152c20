import Foundation
import OpenMarketCore

/// Formats prices the way sellers read them: `₩12,000` (no fraction) and `$12.50` (cents).
/// Done by hand rather than with a locale so the output never depends on the server's settings.
enum Money {
    static func format(_ amount: Double, _ currency: Currency) -> String {
        switch currency {
        case .KRW: return "₩" + grouped(amount, fractionDigits: 0)
        case .USD: return "$" + grouped(amount, fractionDigits: 2)
        }
    }

    /// A number as an `<input type="number">` value: no grouping, no needless ".0".
    static func inputValue(_ amount: Double) -> String {
        guard amount.isFinite else { return "" }
        if let digits = WholeNumber.plainDigits(amount) { return digits }
        let cents = (amount * 100).rounded() / 100
        var text = String(cents)
        if text.contains("e") || text.contains("E") { text = String(format: "%.2f", cents) }
        return text
    }

    /// Digits grouped by thousands with a fixed number of fraction digits, built byte by byte
    /// (it runs for every price on every list page).
    static func grouped(_ amount: Double, fractionDigits: Int) -> String {
        guard amount.isFinite, abs(amount) < 9e15 else { return amount.isFinite ? String(format: "%.\(fractionDigits)f", amount) : "–" }
        let scale = fractionDigits == 0 ? 1 : 100
        // Below 9e15 × 100 the scaled amount fits an Int; the guard above keeps it there.
        let scaled = WholeNumber.clamped(abs(amount) * Double(scale))
        let whole = scaled / scale
        let fraction = scaled % scale
        var digitCount = 1
        var rest = whole
        while rest >= 10 { rest /= 10; digitCount += 1 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        if amount < 0 { bytes.append(contentsOf: "−".utf8) }
        // Written from the right into place, a comma before every third digit.
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digitCount + (digitCount - 1) / 3))
        var position = bytes.count - 1
        rest = whole
        for written in 0..<digitCount {
            if written > 0, written % 3 == 0 {
                bytes[position] = UInt8(ascii: ",")
                position -= 1
            }
            bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            position -= 1
            rest /= 10
        }
        if fractionDigits > 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10))
            bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
