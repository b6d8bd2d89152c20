import Foundation
import OpenMarketCore

/// How sales read on a page: times in the panel's zone (the zone named), the period and its
/// length (`10 years` reads as ten years, not as 3,652 days), the discount, the notes.
struct SaleText: Sendable {
    let zone: TimeZone
    let l: Localizer

    /// A zone as the reader's language names it where the catalog knows a name (`zone_name_<id>`:
    /// Asia/Seoul is 한국 시간 on a Korean page), else by its identifier.
    static func zoneLabel(_ identifier: String, l: Localizer) -> String {
        let key = "zone_name_" + identifier
        return l.catalog.texts[key] != nil ? l(key) : identifier
    }

    /// `Asia/Seoul (UTC+9)`, `한국 시간 (UTC+9)`.
    var zoneName: String {
        let seconds = zone.secondsFromGMT()
        let sign = seconds < 0 ? "−" : "+"
        let hours = abs(seconds) / 3600, minutes = (abs(seconds) % 3600) / 60
        return Self.zoneLabel(zone.identifier, l: l) + " (UTC" + sign + String(hours) + (minutes > 0 ? ":" + (minutes < 10 ? "0" : "") + String(minutes) : "") + ")"
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// `Nov 27, 2026 00:00` / `2026년 11월 27일 00:00`, with seconds when they are not zero.
    func time(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { let n = n ?? 0; return n < 10 ? "0\(n)" : "\(n)" }
        let day = l("date_format", ["year": String(c.year ?? 1970), "month": l("date_month_\(max(1, min(12, c.month ?? 1)))"),
                                    "day": String(c.day ?? 1)])
        return day + " " + two(c.hour) + ":" + two(c.minute) + ((c.second ?? 0) != 0 ? ":" + two(c.second) : "")
    }

    /// `2026-11-27T00:00:00`, for `<time datetime>` and the form's `datetime-local` inputs.
    func inputValue(_ date: Date) -> String { SaleRules.localTimeText(date, zone: zone) }

    func period(_ start: Date, _ end: Date) -> String {
        l("sales_period", ["start": time(start), "end": time(end), "zone": Self.zoneLabel(zone.identifier, l: l)])
    }

    /// The period's length in its two largest calendar units: `10 years`, `2 days 23 hours`.
    /// A period that stops less than a minute before a whole number of days reads in days: a
    /// weekend booked Sat 00:00 – Sun 23:59(:59) is `2 days`, as a seller counts it, not
    /// `1 day 23 hours`. Days are the zone's calendar days, so one of 23 or 25 hours (a
    /// daylight-saving change) still counts as one.
    func length(_ start: Date, _ end: Date) -> String {
        let end = max(start, end)
        let units: Set<Calendar.Component> = [.year, .month, .day, .hour, .minute, .second]
        var c = calendar.dateComponents(units, from: start, to: end)
        let oneMinuteLater = calendar.dateComponents(units, from: start, to: end + 60)
        let wholeDaysAhead = (oneMinuteLater.hour ?? 0) == 0 && (oneMinuteLater.minute ?? 0) == 0
            && (oneMinuteLater.year ?? 0) + (oneMinuteLater.month ?? 0) + (oneMinuteLater.day ?? 0) > 0
        if wholeDaysAhead, (c.hour ?? 0) + (c.minute ?? 0) + (c.second ?? 0) > 0 {
            c = oneMinuteLater
            c.second = 0
        }
        let shownUnits: [(String, Int)] = [("sales_years", c.year ?? 0), ("sales_months", c.month ?? 0), ("sales_days", c.day ?? 0),
                                           ("sales_hours", c.hour ?? 0), ("sales_minutes", c.minute ?? 0), ("sales_seconds", c.second ?? 0)]
        let shown = shownUnits.drop { $0.1 == 0 }.prefix(2).filter { $0.1 != 0 }
        guard !shown.isEmpty else { return l.plural("sales_seconds", count: 0) }
        return shown.map { l.plural($0.0, count: $0.1) }.joined(separator: " ")
    }

    /// `10% off (₩1,200)` once applied, `10% off` before, `₩3,000 off`.
    func discount(_ sale: Sale) -> String {
        switch sale.discount {
        case .amount(let amount):
            return l("sales_discount_amount", ["amount": l.money(amount, sale.currency)])
        case .percent(let share):
            let percent = Money.inputValue(share)
            guard let applied = sale.appliedDiscount else { return l("sales_discount_percent", ["percent": percent]) }
            return l("sales_discount_percent_applied", ["percent": percent, "amount": l.money(applied, sale.currency)])
        }
    }

    static func issueKey(_ code: String) -> String { "issue_" + code }

    func note(_ note: SaleNote, currency: Currency) -> String {
        var arguments = note.arguments
        for key in ["discount", "price"] {
            if let raw = arguments[key], let value = Double(raw) { arguments[key] = l.money(value, currency) }
        }
        if let count = arguments["count"].flatMap(Int.init) { arguments["count"] = l.number(count) }
        return l(note.key, arguments)
    }

    /// A core rule's issue in the reader's language (`issue_<code>`, the codes all `sale_…`).
    func issue(_ issue: FieldIssue, currency: Currency, extra: [String: String] = [:]) -> String {
        guard let code = issue.code else { return issue.message }
        var arguments = issue.arguments.merging(extra) { $1 }
        if let price = arguments["price"].flatMap(Double.init) { arguments["price"] = l.money(price, currency) }
        return l(Self.issueKey(code), arguments)
    }
}
