import HTMLTemplates
import OpenMarketCore

/// How a list page shows the products the API sent but the panel could not read: one element
/// each (`data-unreadable-product="{id}"`, empty when not even the id could be read) saying so,
/// and one line counting them. The readable products show as usual beside them.
enum UnreadableProducts {
    /// A hostile answer can hold thousands: the page names this many and counts the rest.
    static let shownAtMost = 100

    static func templateValue(_ items: [UnreadableProduct], _ l: Localizer) -> TemplateValue {
        guard !items.isEmpty else { return .null }
        let shown: [TemplateValue] = items.prefix(shownAtMost).map { item in
            let text = item.id.map { l("unreadable_item_with_id", ["id": String($0), "field": item.field.isEmpty ? "?" : item.field]) }
                ?? l("unreadable_item_without_id")
            return .object(["id": .string(item.id.map(String.init) ?? ""), "text": .string(text)])
        }
        return .object(["count_text": .string(l.plural("unreadable_count", count: items.count)), "items": .list(shown)])
    }
}
