import HTMLTemplates

/// The products the API sent but the panel could not read (`UnreadableProducts.view`).
struct UnreadableListView: TemplateView {
    var countText: String
    var items: [UnreadableItemView]
    static let templateFields: ViewFields<UnreadableListView> = [
        .text("count_text") { $0.countText },
        .list("items") { $0.items },
    ]
}

/// One unreadable product: its id when that could be read (else empty), and what went wrong.
struct UnreadableItemView: TemplateView {
    var id: String
    var text: String
    static let templateFields: ViewFields<UnreadableItemView> = [.text("id") { $0.id }, .text("text") { $0.text }]
}
