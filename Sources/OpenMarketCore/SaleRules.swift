import Foundation

/// A scheduled discount's amount as the seller typed it: a sum in the product's currency
/// (`3,000`, `₩3,000`) or a share of the price (`10%`).
public enum SaleDiscount: Sendable, Equatable {
    case amount(Double)
    case percent(Double)

    /// `amount` or `percent`: how a store keeps the kind.
    public var kind: String {
        switch self {
        case .amount: "amount"
        case .percent: "percent"
        }
    }

    public var value: Double {
        switch self {
        case .amount(let value), .percent(let value): value
        }
    }

    public init?(kind: String, value: Double) {
        switch kind {
        case "amount": self = .amount(value)
        case "percent": self = .percent(value)
        default: return nil
        }
    }

    /// The discount in money for a product of `price`: a percentage is rounded to whole won or
    /// cents (half away from zero), an amount is taken as is.
    public func amount(price: Double, currency: Currency) -> Double {
        switch self {
        case .amount(let value):
            return value
        case .percent(let share):
            return SaleRules.rounded(price * share / 100, currency)
        }
    }
}

/// The rules of a scheduled discount (즉시할인 with a period), checked before a sale is stored:
/// a discount the price can carry, an end after the start, no two sales of one product at once.
/// Issues name the panel's fields `sale_discount`, `sale_start` and `sale_end`; their codes start
/// with `sale_` so a client can word them in the seller's language.
public enum SaleRules {
    /// The longest period a sale may run: ten years are fine (a standing discount), a century is a typo.
    public static let maxPeriod: TimeInterval = 20 * 366 * 86_400
    /// Characters read from a discount field; anything longer is not an amount.
    public static let maxDiscountText = 32

    /// `10%`, `12.5 %`, `3,000`, `₩3,000`, `3,000원`; nil when the text is none of these. Signs
    /// are not accepted: a sale lowers the price, so `-10%` would be ambiguous.
    public static func parseDiscount(_ text: String) -> SaleDiscount? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= maxDiscountText, !"+-−".contains(trimmed.first!) else { return nil }
        if trimmed.hasSuffix("%") || trimmed.hasSuffix("％") {
            let number = trimmed.dropLast().trimmingCharacters(in: .whitespaces)
            guard let share = AmountText.parse(number), !number.contains(",") else { return nil }
            return .percent(share)
        }
        return AmountText.parse(trimmed).map(SaleDiscount.amount)
    }

    /// Whole won, or cents.
    public static func rounded(_ amount: Double, _ currency: Currency) -> Double {
        switch currency {
        case .KRW: amount.rounded(.toNearestOrAwayFromZero)
        case .USD: (amount * 100).rounded(.toNearestOrAwayFromZero) / 100
        }
    }

    /// The discount field's issues against a product's price and currency.
    public static func discountIssues(_ text: String, price: Double, currency: Currency) -> [FieldIssue] {
        let field = "sale_discount"
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return [FieldIssue(field: field, message: "Enter a discount: an amount like 3,000 or a percentage like 10%.",
                               code: "sale_discount_empty")]
        }
        guard let discount = parseDiscount(text) else {
            return [FieldIssue(field: field, message: "Write the discount as an amount like 3,000 or a percentage like 10%.",
                               code: "sale_discount_unreadable")]
        }
        switch discount {
        case .percent(let share):
            guard share > 0, share <= 100 else {
                return [FieldIssue(field: field, message: "A percentage must be more than 0 and at most 100.",
                                   code: "sale_percent_range")]
            }
        case .amount(let amount):
            guard amount > 0 else {
                return [FieldIssue(field: field, message: "The discount must be more than 0.", code: "sale_discount_not_positive")]
            }
            if AmountText.hasFractionBeyond(currency, amount) {
                return [FieldIssue(field: field,
                                   message: currency == .KRW ? "Won are whole: enter the discount without a fraction."
                                                             : "Dollars have cents: at most two digits after the point.",
                                   code: currency == .KRW ? "sale_discount_whole_won" : "sale_discount_cents")]
            }
        }
        let money = discount.amount(price: price, currency: currency)
        if money > price {
            return [FieldIssue(field: field, message: "The discount cannot be more than the price (\(formatted(price))).",
                               code: "sale_discount_over_price", arguments: ["price": formatted(price)])]
        }
        if money <= 0 {
            return [FieldIssue(field: field, message: "This percentage of the price rounds to nothing.",
                               code: "sale_discount_rounds_to_zero")]
        }
        return []
    }

    /// The period's issues. `start` and `end` are nil when their fields could not be read
    /// (`startText`/`endText` tell empty from unreadable). A start in the past means now, so the
    /// end is compared with `max(start, now)`.
    public static func periodIssues(start: Date?, startText: String, end: Date?, endText: String, now: Date) -> [FieldIssue] {
        var issues: [FieldIssue] = []
        if start == nil {
            issues.append(startText.trimmingCharacters(in: .whitespaces).isEmpty
                ? FieldIssue(field: "sale_start", message: "Enter when the sale starts.", code: "sale_start_empty")
                : FieldIssue(field: "sale_start", message: "Enter the start as a date and time.", code: "sale_time_unreadable"))
        }
        if end == nil {
            issues.append(endText.trimmingCharacters(in: .whitespaces).isEmpty
                ? FieldIssue(field: "sale_end", message: "Enter when the sale ends.", code: "sale_end_empty")
                : FieldIssue(field: "sale_end", message: "Enter the end as a date and time.", code: "sale_time_unreadable"))
        }
        guard let start, let end else { return issues }
        let effectiveStart = max(start, now)
        if end <= effectiveStart {
            issues.append(FieldIssue(field: "sale_end",
                                     message: end <= start ? "The end must come after the start." : "The end has already passed.",
                                     code: end <= start ? "sale_end_not_after_start" : "sale_end_passed"))
        } else if end.timeIntervalSince(effectiveStart) > maxPeriod {
            issues.append(FieldIssue(field: "sale_end", message: "A sale can run at most 20 years.", code: "sale_period_too_long",
                                     arguments: ["years": "20"]))
        }
        return issues
    }

    /// Two periods overlap when each starts before the other ends: one ending the second the
    /// next starts is fine.
    public static func overlaps(_ a: ClosedRange<Date>, _ b: ClosedRange<Date>) -> Bool {
        a.lowerBound < b.upperBound && b.lowerBound < a.upperBound
    }

    /// The issue for a period that meets another sale of the product (`other` is its period).
    public static func overlapIssue(with other: ClosedRange<Date>, saleID: Int) -> FieldIssue {
        FieldIssue(field: "sale_start", message: "This period overlaps sale #\(saleID) of the same product.",
                   code: "sale_overlap", arguments: ["sale": String(saleID)])
    }

    /// A `datetime-local` value (`2026-11-27T00:00`, `2026-11-27T00:00:30`, also with a space for
    /// the `T`) read as a wall-clock time in `zone`. Nil when it is not such a value or names a
    /// date that does not exist. A time skipped by a daylight-saving change moves forward.
    public static func parseLocalTime(_ text: String, zone: TimeZone) -> Date? {
        let value = text.trimmingCharacters(in: .whitespaces)
        guard value.utf8.count >= 16, value.utf8.count <= 19, value.allSatisfy({ $0.isASCII }) else { return nil }
        let bytes = Array(value.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 48) }
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16) else { return nil }
        var second = 0
        if bytes.count > 16 {
            guard bytes.count == 19, bytes[16] == UInt8(ascii: ":"), let parsed = number(17..<19) else { return nil }
            second = parsed
        }
        guard (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        // Refuse 2026-02-31 instead of rolling it over to March.
        guard let date = calendar.date(from: components) else { return nil }
        let check = calendar.dateComponents([.year, .month, .day], from: date)
        guard check.year == year, check.month == month, check.day == day else { return nil }
        return date
    }

    /// The `datetime-local` value of a moment in `zone`, with seconds (`2026-11-27T00:00:00`).
    public static func localTimeText(_ date: Date, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { let n = n ?? 0; return n < 10 ? "0\(n)" : "\(n)" }
        let year = String(c.year ?? 1970)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + two(c.month) + "-" + two(c.day)
            + "T" + two(c.hour) + ":" + two(c.minute) + ":" + two(c.second)
    }

    private static func formatted(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
