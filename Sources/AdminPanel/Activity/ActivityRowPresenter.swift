import Foundation
import HTMLTemplates
import OpenMarketCore

/// Builds one activity row as a reader sees it (the `/activity` list and a product's history): in their
/// language, times in the panel's time zone with the zone named, fields named as the form names
/// them, money with its currency, and the product by its name.
///
/// Stored rows keep raw values (API field names, plain numbers) so reverts and exports can read
/// them; everything here is presentation.
struct ActivityRowPresenter: Sendable {
    struct Product: Sendable, Equatable {
        var name: String
        var currency: Currency
    }

    let localizer: Localizer
    let timeZone: TimeZone
    /// The products the rows are about, as the catalog copy has them now (a deleted one is absent).
    let products: [Int: Product]

    /// Fields whose values are amounts of money.
    static let moneyFields: Set<String> = ["price", "discounted_price"]

    /// The row without a revert form (the activity page adds one for writers).
    func row(_ record: ActivityRecord) -> ActivityRowView {
        let l = localizer
        let entry = record.entry
        let detail = entry.detail.flatMap(ActivityDetail.init(stored:))
        let known = entry.productID.flatMap { products[$0] }
        // The currency of amounts: a currency change in the row itself, else what the row
        // recorded, else the product's own now.
        let currency = entry.changes.first(where: { $0.field == "currency" }).flatMap { Currency(rawValue: $0.new) }
            ?? detail?.arguments["currency"].flatMap(Currency.init(rawValue:))
            ?? known?.currency
        let detailText: String? = detail.map { $0.text(l, zone: timeZone) } ?? entry.detail
        let product = entry.productID.map { id in
            let name = known?.name ?? detail?.arguments["product_name"] ?? Self.legacyName(entry)
            return LabelledLinkView(url: "/products/\(id)",
                                    label: name.map { l("language_quoted_product", ["name": $0]) }
                                        ?? l("bulk_unknown_product", ["id": String(id)]))
        }
        let iso = ISO8601DateFormatter.string(from: record.time, timeZone: TimeZone(identifier: "UTC")!,
                                              formatOptions: [.withInternetDateTime])
        return ActivityRowView(
            action: entry.action,
            actionLabel: ActivityAction.label(entry.action, l),
            person: entry.person.isEmpty ? l("activity_unknown_person") : entry.person,
            address: entry.address,
            time: l.dateTime(record.time, in: timeZone),
            timeISO: iso,
            product: product,
            detail: detailText.flatMap { $0.isEmpty ? nil : TextView(text: $0) },
            changes: entry.changes.map { change in
                let (old, new) = values(change, currency: currency)
                return ActivityChangeView(field: change.field, label: l.fieldLabel(change.field), old: old, new: new)
            })
    }

    /// A change's old and new value as the reader should see them.
    func values(_ change: ActivityEntry.FieldChange, currency: Currency?) -> (old: String, new: String) {
        let l = localizer
        switch change.field {
        case _ where Self.moneyFields.contains(change.field):
            func amount(_ text: String) -> String {
                guard let value = Double(text), value.isFinite else { return text }
                return currency.map { l.money(value, $0) } ?? Money.grouped(value, fractionDigits: value == value.rounded() ? 0 : 2)
            }
            return (amount(change.old), amount(change.new))
        case "stock":
            func count(_ text: String) -> String { Int(text).map(l.number) ?? text }
            return (count(change.old), count(change.new))
        case "thumbnail_id":
            // Image ids mean nothing to a seller: the row says the thumbnail changed.
            return ("", l("activity_thumbnail_changed"))
        case "currency":
            func name(_ text: String) -> String { l.catalog.texts["form_currency_" + text.lowercased()] ?? text }
            return (name(change.old), name(change.new))
        case "images":
            func images(_ text: String) -> String { Int(text).map { l("language_image_count", ["count": l.number($0)]) } ?? text }
            return (images(change.old), images(change.new))
        default:
            return (change.old, change.new)
        }
    }

    /// Rows of older versions kept the product's name as the whole detail of a register or delete.
    private static func legacyName(_ entry: ActivityEntry) -> String? {
        guard entry.action == "register" || entry.action == "delete", let detail = entry.detail,
              ActivityDetail(stored: detail) == nil, !detail.isEmpty else { return nil }
        return detail
    }
}
