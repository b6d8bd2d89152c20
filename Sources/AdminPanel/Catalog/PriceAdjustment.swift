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

    /// Parses `[+|-]amount` or `[+|-]number%`, the amount as sellers type it (`+1,000`, `-₩500`,
    /// `+1,000원`: `AmountText`); at most two decimals; anything else (or out of range) is nil.
    static func parse(_ text: String) -> PriceAdjustment? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard rest.count <= 24, !rest.contains(where: \.isWhitespace) else { return nil }
        let isPercent = rest.last == "%"
        if isPercent { rest = rest.dropLast() }
        let decimals = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first
        if let decimals {
            let digits = decimals.filter { $0.isASCII && $0.isNumber }
            guard (1...2).contains(digits.count) else { return nil }
        }
        guard let value = AmountText.parse(String(rest)) else { return nil }
        let magnitude = abs(value)
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
