import Foundation
import HTMLTemplates
import OpenMarketCore

/// The active filters of a list view as removable chips: each one a link to the same view
/// without that one filter (page 1), so a seller sees at a glance what narrows the list and
/// undoes one thing at a time. Sort and page size are not filters: they hide nothing.
enum FilterChips {
    struct Chip: Equatable {
        var label: String
        var removeURL: String
    }

    static func chips(_ query: CatalogQuery, _ l: Localizer) -> [Chip] {
        var chips: [Chip] = []
        func without(_ change: (inout CatalogQuery) -> Void) -> String {
            var other = query
            change(&other)
            return other.url(page: 1)
        }
        if !query.search.isEmpty {
            chips.append(Chip(label: l("look_chip_search", ["query": query.search]),
                              removeURL: without { $0.search = "" }))
        }
        if query.show != .all {
            chips.append(Chip(label: l("catalog_show_label") + ": " + l("catalog_show_mine"),
                              removeURL: without { $0.show = .all }))
        }
        if query.stock != .any {
            chips.append(Chip(label: l("catalog_stock_label") + ": " + l(CatalogController.stockKey(query.stock)),
                              removeURL: without { $0.stock = .any }))
        }
        if query.discountedOnly {
            chips.append(Chip(label: l("catalog_discounted_only"), removeURL: without { $0.discountedOnly = false }))
        }
        if let currency = query.currency {
            chips.append(Chip(label: l("catalog_currency_label") + ": " + currency.rawValue,
                              removeURL: without { $0.currency = nil }))
        }
        return chips
    }

    /// How many filters (not the search) narrow the view: shown on the filters' summary.
    static func filterCount(_ query: CatalogQuery) -> Int {
        [query.show != .all, query.stock != .any, query.discountedOnly, query.currency != nil].filter { $0 }.count
    }

    static func view(_ query: CatalogQuery, _ l: Localizer) -> FilterChipsView? {
        let chips = chips(query, l)
        guard !chips.isEmpty else { return nil }
        return FilterChipsView(
            items: chips.map { chip in
                FilterChipView(label: chip.label, url: chip.removeURL, removeLabel: l("look_chip_remove", ["filter": chip.label]))
            },
            clearAll: chips.count > 1 ? LinkView(url: query.cleared.url(page: 1)) : nil)
    }
}
