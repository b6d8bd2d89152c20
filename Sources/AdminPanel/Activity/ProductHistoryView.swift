import HTMLTemplates

/// A product's latest activity rows on its detail page (`data-history` in `product.html`).
struct ProductHistoryView: TemplateView {
    var rows: [ActivityRowView]
    var more: LinkView?

    static let templateFields = ViewFields<ProductHistoryView>([
        .list("rows") { $0.rows },
        .flag("empty") { $0.rows.isEmpty },
        .optionalView("more") { $0.more },
    ])
}
