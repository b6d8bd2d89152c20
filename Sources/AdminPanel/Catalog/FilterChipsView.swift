import HTMLTemplates

/// The active filters as removable chips (`FilterChips.view`).
struct FilterChipsView: TemplateView {
    var items: [FilterChipView]
    var clearAll: LinkView?
    static let templateFields: ViewFields<FilterChipsView> = [
        .list("items") { $0.items },
        .optionalView("clear_all") { $0.clearAll },
    ]
}

/// One chip: a link to the same view without that filter.
struct FilterChipView: TemplateView {
    var label: String
    var url: String
    var removeLabel: String
    static let templateFields: ViewFields<FilterChipView> = [
        .text("label") { $0.label },
        .text("url") { $0.url },
        .text("remove_label") { $0.removeLabel },
    ]
}
