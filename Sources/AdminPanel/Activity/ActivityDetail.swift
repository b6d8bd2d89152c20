import Foundation
import OpenMarketCore

/// What an activity row says, stored as a catalog key and raw values so every reader sees it in
/// their own language: a row never stores a finished sentence in one language.
///
/// How to add a kind of row (import, restore, revert, sale-start…), one catalog entry each:
/// - its name (the badge and the `/activity` filter): `activity_action_<kind>` in the catalogs, and
///   the kind in `ActivityAction.all`. A kind without a catalog entry shows as the kind itself.
/// - its sentence, if it has one: `ActivityDetail("<name>", [...])` when recording, text
///   `activity_detail_<name>` in the catalogs with the arguments as `{placeholders}` (Korean
///   particles as `{을/를}`…). A name without a catalog entry shows nothing (never a raw key).
///
/// Arguments are raw values; the reader's language formats them by their names:
/// - `role`, `old_role`, `new_role`: a role (`editor`) → its name (편집자).
/// - `price`, `old_price`, `new_price`, `discount`, `amount`: an amount in `currency` → ₩12,000.
/// - `count`, `old_id`, `new_id`: grouped numbers.
/// - `start`, `end`: a time (`timeValue`, seconds since 1970) → `2026년 12월 5일 00:00` in the panel's zone.
/// - `<x>_key`: a catalog key whose text (filled with the same arguments) becomes `{x}`; such a
///   text may use another `<y>_key`'s text (one level: `reason` made of `discount` and `period`).
/// - `product_name`: the product's name when the row was written; it names the row's product link
///   when the product is no longer in the catalog (deleted).
/// Anything else is shown as given (escaped by the template).
struct ActivityDetail: Sendable, Equatable, Codable {
    var name: String
    var arguments: [String: String]

    init(_ name: String, _ arguments: [String: String] = [:]) {
        self.name = name
        self.arguments = arguments
    }

    /// The form kept in the `detail` column: a small JSON object that plain sentences of older
    /// rows can never be mistaken for (they are shown as written).
    /// Values are cut to `maxValueLength` characters, so a row stays small and is never cut in
    /// the middle of its JSON (the log keeps structured details whole, up to `maxStoredLength`).
    var stored: String {
        let short = arguments.prefix(Self.maxArguments).reduce(into: [String: String]()) { out, pair in
            out[String(pair.key.prefix(40))] = pair.value.count > Self.maxValueLength
                ? String(pair.value.prefix(Self.maxValueLength - 1)) + "…" : pair.value
        }
        let data = (try? JSONSerialization.data(withJSONObject: [Self.marker: String(name.prefix(60)), "arguments": short],
                                                options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static let maxValueLength = 120
    static let maxArguments = 16
    /// The most a stored detail can take (16 × (40 + 120) characters, escapes and the name).
    static let maxStoredLength = 4_000

    private static let marker = "om_detail"

    /// The detail of a stored column, or nil for a plain sentence (rows of older versions).
    init?(stored: String) {
        guard stored.hasPrefix("{\"arguments\""), let data = stored.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let name = object[Self.marker] as? String else { return nil }
        self.name = name
        self.arguments = (object["arguments"] as? [String: String]) ?? [:]
    }

    static let roleArguments: Set<String> = ["role", "old_role", "new_role"]
    static let moneyArguments: Set<String> = ["price", "old_price", "new_price", "discount", "amount"]
    static let numberArguments: Set<String> = ["count", "old_id", "new_id"]
    static let timeArguments: Set<String> = ["start", "end"]

    /// How a time is kept in an argument: whole seconds since 1970.
    static func timeValue(_ date: Date) -> String { String(WholeNumber.clamped(date.timeIntervalSince1970)) }

    /// The sentence in the reader's language, or nil when the catalog has none for this detail.
    /// Times are shown in `zone` (the panel's).
    func text(_ l: Localizer, zone: TimeZone = TimeZone(identifier: "UTC")!) -> String? {
        let key = "activity_detail_" + name
        guard l.catalog.texts[key] != nil else { return nil }
        return l(key, formattedArguments(l, zone: zone))
    }

    func formattedArguments(_ l: Localizer, zone: TimeZone = TimeZone(identifier: "UTC")!) -> [String: String] {
        var out = arguments
        let currency = arguments["currency"].flatMap(Currency.init(rawValue:))
        for (name, value) in arguments {
            if Self.roleArguments.contains(name) {
                out[name] = l.catalog.texts["role_" + value] ?? value
            } else if Self.moneyArguments.contains(name), let amount = Double(value), amount.isFinite {
                out[name] = currency.map { l.money(amount, $0) } ?? Money.grouped(amount, fractionDigits: amount == amount.rounded() ? 0 : 2)
            } else if Self.numberArguments.contains(name), let number = Int(value) {
                out[name] = l.number(number)
            } else if Self.timeArguments.contains(name), let seconds = Double(value), seconds.isFinite {
                out[name] = SaleText(zone: zone, l: l).time(Date(timeIntervalSince1970: seconds))
            }
        }
        if let stored = arguments["zone"] {
            out["zone"] = SaleText.zoneLabel(stored, l: l)
        } else if arguments.keys.contains(where: Self.timeArguments.contains) {
            out["zone"] = SaleText.zoneLabel(zone.identifier, l: l)
        }
        // Two rounds, so a text made of other keys' texts finds them filled, whatever the order.
        for _ in 0..<2 {
            for (name, key) in arguments where name.hasSuffix("_key") {
                out[String(name.dropLast(4))] = l.catalog.texts[key] != nil ? l(key, out) : ""
            }
        }
        return out
    }
}
