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
        var whole = scaled / scale
        let fraction = scaled % scale
        var reversed: [UInt8] = []
        reversed.reserveCapacity(32)
        var digits = 0
        repeat {
            if digits > 0, digits % 3 == 0 { reversed.append(UInt8(ascii: ",")) }
            reversed.append(UInt8(ascii: "0") + UInt8(whole % 10))
            whole /= 10
            digits += 1
        } while whole > 0
        var bytes: [UInt8] = amount < 0 ? Array("−".utf8) : []
        bytes.append(contentsOf: reversed.reversed())
        if fractionDigits > 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10))
            bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
