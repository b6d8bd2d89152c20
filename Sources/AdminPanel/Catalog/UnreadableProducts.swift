import HTMLTemplates
import OpenMarketCore

/// How a list page shows the products the API sent but the panel could not read: one element
/// each (`data-unreadable-product="{id}"`, empty when not even the id could be read) saying so,
/// and one line counting them. The readable products show as usual beside them.
enum UnreadableProducts {
    /// A hostile answer can hold thousands: the page names this many and counts the rest.
    static let shownAtMost = 100

    static func view(_ items: [UnreadableProduct], _ l: Localizer) -> UnreadableListView? {
        guard !items.isEmpty else { return nil }
        let shown = items.prefix(shownAtMost).map { item in
            let text = item.id.map { l("unreadable_item_with_id", ["id": String($0), "field": item.field.isEmpty ? "?" : item.field]) }
                ?? l("unreadable_item_without_id")
            return UnreadableItemView(id: item.id.map(String.init) ?? "", text: text)
        }
        return UnreadableListView(countText: l.plural("unreadable_count", count: items.count), items: Array(shown))
    }
}
