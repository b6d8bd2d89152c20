import HTMLTemplates

/// One product of the list (a row or a card), built by `ProductPresenter.listRow`.
struct ProductRowView: TemplateView {
    var id: Int
    var vendorID: Int
    var href = ""
    var name: String
    var vendor: String
    var thumbnail: ImageSourceView?
    var description: TextView?
    var price: ListPrice
    var soldOut: Bool
    var stockText: String
    /// Set for the vendor's own products when the visitor may write (bulk actions).
    var selectable: SelectableMarkView?
    var sale: SaleMarkView?

    static let templateFields: ViewFields<ProductRowView> = [
        .int("id") { $0.id },
        .text("href") { $0.href },
        .text("name") { $0.name },
        .text("vendor") { $0.vendor },
        .optionalView("thumbnail") { $0.thumbnail },
        .optionalView("description") { $0.description },
        .flag("discounted") { $0.price.discounted },
        .text("original_price") { $0.price.original },
        .text("price") { $0.price.current },
        .flag("sold_out") { $0.soldOut },
        .text("stock_text") { $0.stockText },
        .optionalView("selectable") { $0.selectable },
        .optionalView("sale") { $0.sale },
    ]
}

/// A list row's prices, formatted: the original and, when discounted, the price now.
struct ListPrice: Sendable {
    var discounted: Bool
    var original: String
    var current: String
}

/// `{{#thumbnail}}<img src="{{src}}">{{/thumbnail}}`
struct ImageSourceView: TemplateView {
    var src: String
    static let templateFields: ViewFields<ImageSourceView> = [.text("src") { $0.src }]
}

/// The bulk checkbox of a row. It carries the row's id itself, so the row loop never reaches
/// out to the row's scope (which would copy the row per use).
struct SelectableMarkView: TemplateView {
    var id: Int
    var selectLabel: String
    var checked: Bool
    static let templateFields: ViewFields<SelectableMarkView> = [
        .int("id") { $0.id },
        .text("select_label") { $0.selectLabel },
        .flag("checked") { $0.checked },
    ]
}

/// A row's scheduled or running sale badge.
struct SaleMarkView: TemplateView {
    var state: String
    var label: String
    static let templateFields: ViewFields<SaleMarkView> = [.text("state") { $0.state }, .text("label") { $0.label }]
}
