import Foundation
import HTMLTemplates
import OpenMarketCore

/// The texts, money and dates of one request's language. Handlers get it from the request
/// (`Visitors.localizer(for:)`) and call it with a catalog key and the values of its placeholders.
struct Localizer: Sendable {
    let catalog: StringCatalog

    var language: Language { catalog.language }

    /// The text of `key` with its `{placeholders}` filled. A key that is missing (a bug the
    /// catalog tests catch) shows as itself rather than crashing a page.
    func callAsFunction(_ key: String, _ arguments: [String: String] = [:]) -> String {
        guard let template = catalog.templates[key] else { return Self.fill(key, arguments) }
        return template.filled(arguments)
    }

    /// `key_one` when `count` is 1 (English singular), else `key`; `{count}` is filled in grouped.
    func plural(_ key: String, count: Int, _ arguments: [String: String] = [:]) -> String {
        var chosen = key
        if count == 1 {
            let singular = key + "_one"
            if catalog.templates[singular] != nil { chosen = singular }
        }
        if arguments.isEmpty {
            // The list's stock text on every row: one value, no dictionary.
            guard let template = catalog.templates[chosen] else { return Self.fill(chosen, ["count": number(count)]) }
            return template.filled("count", number(count))
        }
        var arguments = arguments
        arguments["count"] = number(count)
        return self(chosen, arguments)
    }

    /// `₩12,000`, `$12.50` — the same signs in both languages; Korean sellers write them so.
    func money(_ amount: Double, _ currency: Currency) -> String {
        Money.format(amount, currency)
    }

    func number(_ value: Int) -> String {
        Money.grouped(Double(value), fractionDigits: 0)
    }

    /// `Nov 22, 2026` / `2026년 11월 22일` (UTC, day precision as the API gives dates).
    func date(_ date: Date) -> String {
        let (year, month, day) = DisplayDate.parts(date)
        return self("date_format", ["year": String(year), "month": self("date_month_\(max(1, min(12, month)))"),
                                    "day": String(day)])
    }

    /// `Nov 25, 2026 15:30 KST` / `2026년 11월 25일 15:30 KST`: a moment in `zone` (the panel's
    /// `--time-zone`), the zone named so a colleague elsewhere reads it right.
    func dateTime(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let day = self("date_format", ["year": String(parts.year ?? 1970),
                                       "month": self("date_month_\(max(1, min(12, parts.month ?? 1)))"),
                                       "day": String(parts.day ?? 1)])
        return day + " " + two(parts.hour ?? 0) + ":" + two(parts.minute ?? 0) + " " + Self.zoneName(zone, at: date)
    }

    /// `KST`, `UTC`, `CET` when the system has a letter abbreviation, else `UTC+9` / `UTC−3:30`.
    static func zoneName(_ zone: TimeZone, at date: Date) -> String {
        if ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Universal", "Zulu"].contains(zone.identifier) { return "UTC" }
        // Linux's zone data writes Seoul's zone "GMT+9"; Korean sellers know it as KST.
        if let known = knownAbbreviations[zone.identifier] { return known }
        if let abbreviation = zone.abbreviation(for: date), !abbreviation.isEmpty,
           abbreviation.allSatisfy({ $0.isASCII && $0.isUppercase }) {
            return abbreviation
        }
        let seconds = zone.secondsFromGMT(for: date)
        if seconds == 0 { return "UTC" }
        let hours = abs(seconds) / 3600, minutes = (abs(seconds) % 3600) / 60
        return "UTC" + (seconds < 0 ? "−" : "+") + "\(hours)" + (minutes == 0 ? "" : ":" + (minutes < 10 ? "0" : "") + "\(minutes)")
    }

    /// "40 seconds", "7분" — for wait messages.
    func duration(_ interval: TimeInterval) -> String {
        let seconds = WholeNumber.clamped(interval, rounding: .up)
        if seconds < 60 { return plural("duration_seconds", count: seconds) }
        return plural("duration_minutes", count: seconds / 60 + (seconds % 60 == 0 ? 0 : 1))
    }

    /// A rule issue in this language. Issues of the core's rules and the form's parsing carry a
    /// code (`issue_<code>` in the catalog) and raw arguments; amounts are formatted as money in
    /// the form's currency. Issues from the API's own text (no code) are shown as the API wrote them.
    func issue(_ issue: FieldIssue, currency: Currency = .KRW) -> String {
        guard let code = issue.code, catalog.texts["issue_" + code] != nil else { return issue.message }
        var arguments = issue.arguments
        // `{field}`: the field's name as its form label shows it, so a message can name it.
        if arguments["field"] == nil { arguments["field"] = fieldLabel(issue.field) }
        for key in Self.moneyArguments {
            if let raw = arguments[key], let value = Double(raw) { arguments[key] = money(value, currency) }
        }
        for key in ["count", "min", "max", "width", "height", "side"] {
            if let raw = arguments[key], let value = Int(raw) { arguments[key] = number(value) }
        }
        return self("issue_" + code, arguments)
    }

    /// Zones whose usual letters the system does not give (no daylight saving in any of them).
    static let knownAbbreviations = ["Asia/Seoul": "KST", "ROK": "KST", "Asia/Tokyo": "JST", "Japan": "JST"]

    /// A product field's name as the form labels it (`price` → 가격), for issues, the activity log
    /// and product history; an unknown field shows as itself.
    func fieldLabel(_ field: String) -> String {
        let key = Self.fieldLabelKeys[field] ?? "field_" + field
        return catalog.texts[key] ?? field
    }

    static let fieldLabelKeys = ["discounted_price": "field_discount", "thumbnail_id": "field_thumbnail",
                                 "title": "field_name", "descriptions": "field_description"]

    /// Arguments of issues that are amounts of money.
    static let moneyArguments = ["price", "discount"]

    /// One pass over the text, so a value that itself contains `{name}` or `{을/를}` (a product
    /// called "{count}") is never filled again. Particle tokens (`KoreanParticles`) are chosen by
    /// the text before them.
    static func fill(_ text: String, _ arguments: [String: String]) -> String {
        // On bytes: `String.contains(String)` goes through NSString.
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let value = arguments[String(after[..<close])] {
                result += value
                rest = after[after.index(after: close)...]
            } else if let close = after.firstIndex(of: "}"), let particle = KoreanParticles.particle(after[..<close], after: result) {
                // `{을/를}`: chosen by what is written so far, the value just filled in included.
                result += particle
                rest = after[after.index(after: close)...]
            } else {
                result += "{"
                rest = after
            }
        }
        return result + rest
    }
}
