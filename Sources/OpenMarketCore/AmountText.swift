import Foundation

/// Amounts as sellers type them: `12000`, `12,000`, `₩12,000`, `12,000원`, `$12.50`, `+1,000`,
/// `−500`. Korean sellers group digits with commas everywhere (Smart Store and Coupang Wing show
/// prices that way), so a form that refuses `12,000` refuses the seller's own habit.
///
/// Grouping is checked, not just stripped: after the first group every group has three digits, so
/// `12,00` (perhaps meant as 12.00) is refused instead of being read as 1,200.
public enum AmountText {
    /// The amount, sign included, or nil when the text is not one.
    public static func parse(_ text: String) -> Double? {
        var rest = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        var negative = false
        if let first = rest.first, "+-−".contains(first) {
            negative = first != "+"
            rest = rest.dropFirst()
        }
        if let first = rest.first, "₩￦$".contains(first) { rest = rest.dropFirst() }
        if rest.hasSuffix("원") { rest = rest.dropLast() }
        rest = Substring(rest.trimmingCharacters(in: .whitespaces))
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty else { return nil }
        let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
        guard groups.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
              groups.dropFirst().allSatisfy({ $0.count == 3 }), groups[0].count <= (groups.count > 1 ? 3 : 30) else { return nil }
        var plain = groups.joined()
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.allSatisfy(\.isASCIIDigit) else { return nil }
            plain += "." + fraction
        }
        guard let value = Double(plain), value.isFinite else { return nil }
        return negative ? -value : value
    }

    /// Whether an amount has a fraction its currency cannot hold: won are whole, dollars have cents.
    public static func hasFractionBeyond(_ currency: Currency, _ amount: Double) -> Bool {
        switch currency {
        case .KRW: return amount != amount.rounded()
        case .USD: return (amount * 100 - (amount * 100).rounded()).magnitude > 1e-6
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
