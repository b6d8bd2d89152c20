import Foundation
import OpenMarketCore

/// The fields of a sale as typed (detail page form and bulk action): `sale_discount`,
/// `sale_start`, `sale_end` (`datetime-local` in the panel's zone).
struct SaleForm: Sendable, Equatable {
    var discount = ""
    var start = ""
    var end = ""

    /// Characters kept of each field: enough for any real value, so a page never echoes a flood.
    static let maxFieldLength = 40

    init(discount: String = "", start: String = "", end: String = "") {
        self.discount = discount
        self.start = start
        self.end = end
    }

    init(_ field: (String) -> String?) {
        func read(_ name: String) -> String { String((field(name) ?? "").prefix(Self.maxFieldLength)) }
        self.init(discount: read("sale_discount"), start: read("sale_start"), end: read("sale_end"))
    }

    /// A typed time as the form's `datetime-local` inputs (minute steps) show it again:
    /// `2026-12-05T00:00:00` → `2026-12-05T00:00`. Other seconds stay as typed: the server takes
    /// them, and an input's own value is a valid step for it.
    static func minuteValue(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count == 19, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
              text.hasSuffix(":00"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":") else { return text }
        return String(text.dropLast(3))
    }

    /// A sale the rules accept for one product: its discount and period (a start in the past is now).
    struct Checked: Sendable, Equatable {
        var discount: SaleDiscount
        var start: Date
        var end: Date
    }

    enum Outcome: Sendable, Equatable {
        case accepted(Checked)
        case refused([FieldIssue])
    }

    /// Every issue for a product of `price` in `currency`, or the checked sale.
    func check(price: Double, currency: Currency, zone: TimeZone, now: Date) -> Outcome {
        var issues = SaleRules.discountIssues(discount, price: price, currency: currency)
        let (start, end, periodIssues) = period(zone: zone, now: now)
        issues += periodIssues
        guard issues.isEmpty, let start, let end, let parsed = SaleRules.parseDiscount(discount) else { return .refused(issues) }
        return .accepted(Checked(discount: parsed, start: max(start, now), end: end))
    }

    private func period(zone: TimeZone, now: Date) -> (Date?, Date?, [FieldIssue]) {
        let start = SaleRules.parseLocalTime(start, zone: zone)
        let end = SaleRules.parseLocalTime(end, zone: zone)
        return (start, end, SaleRules.periodIssues(start: start, startText: self.start, end: end, endText: self.end, now: now))
    }
}

/// The detail page's sale form after a refused submission: the values kept, the errors by field.
struct SaleFormState: Sendable {
    var values: SaleForm
    /// Field name → message in the reader's language.
    var errors: [(field: String, message: String)]
}
