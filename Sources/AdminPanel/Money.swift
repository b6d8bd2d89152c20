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
        if amount == amount.rounded(), abs(amount) < 1e15 { return String(Int64(amount)) }
        let cents = (amount * 100).rounded() / 100
        var text = String(cents)
        if text.contains("e") || text.contains("E") { text = String(format: "%.2f", cents) }
        return text
    }

    static func grouped(_ amount: Double, fractionDigits: Int) -> String {
        guard amount.isFinite else { return "–" }
        let negative = amount < 0
        let scale = fractionDigits == 0 ? 1.0 : 100.0
        let scaled = (abs(amount) * scale).rounded()
        let whole = (scaled / scale).rounded(.down)
        let fraction = Int(scaled - whole * scale)
        var digits = whole < 1e18 ? String(Int64(whole)) : String(format: "%.0f", whole)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(Substring(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(Substring(digits), at: 0)
        var text = groups.joined(separator: ",")
        if fractionDigits > 0 {
            text += "." + (fraction < 10 ? "0" : "") + String(fraction)
        }
        return negative ? "−" + text : text
    }
}
