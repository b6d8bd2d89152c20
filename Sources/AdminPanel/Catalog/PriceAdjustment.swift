import Foundation
import OpenMarketCore

/// `adjust-price`'s `amount`: `+1000`, `-500` (in the product's own currency) or `-10%`, `+5%`.
///
/// The new price is rounded to what the currency can hold — whole won, or cents for USD — half
/// away from zero. It must stay above 0. A discount larger than the new price is lowered to the
/// new price (the buyer then pays 0 rather than the API refusing the change), and the result
/// says so.
struct PriceAdjustment: Sendable, Equatable {
    enum Change: Sendable, Equatable {
        case amount(Double)
        case percent(Double)
    }

    let change: Change

    static let maxAmount = 1e12
    static let percentRange = -99.99...1000.0

    /// Parses `[+|-]digits[.d[d]][%]`; anything else (or out of range) is nil.
    static func parse(_ text: String) -> PriceAdjustment? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        var sign = 1.0
        if rest.first == "+" || rest.first == "-" {
            sign = rest.first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        let isPercent = rest.last == "%"
        if isPercent { rest = rest.dropLast() }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty, whole.count <= 13,
              whole.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        if parts.count == 2 {
            guard (1...2).contains(parts[1].count), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        }
        guard let magnitude = Double(rest) else { return nil }
        let value = sign * magnitude
        guard value != 0 else { return nil }
        if isPercent {
            guard percentRange.contains(value) else { return nil }
            return PriceAdjustment(change: .percent(value))
        }
        guard magnitude <= maxAmount else { return nil }
        return PriceAdjustment(change: .amount(value))
    }

    struct Outcome: Sendable, Equatable {
        var price: Double
        var discountedPrice: Double
        /// The discount had to be lowered to stay within the new price.
        var discountClamped: Bool
    }

    /// The product's new price (and discount), or nil when the price would not stay above 0.
    func apply(price: Double, discountedPrice: Double, currency: Currency) -> Outcome? {
        let raw: Double
        switch change {
        case .amount(let amount): raw = price + amount
        case .percent(let percent): raw = price * (1 + percent / 100)
        }
        let newPrice = Self.rounded(raw, currency)
        guard newPrice > 0, newPrice.isFinite else { return nil }
        let clamped = discountedPrice > newPrice
        return Outcome(price: newPrice, discountedPrice: clamped ? newPrice : discountedPrice, discountClamped: clamped)
    }

    /// Whole won, or cents for USD.
    static func rounded(_ value: Double, _ currency: Currency) -> Double {
        switch currency {
        case .KRW: return value.rounded(.toNearestOrAwayFromZero)
        case .USD: return (value * 100).rounded(.toNearestOrAwayFromZero) / 100
        }
    }
}
