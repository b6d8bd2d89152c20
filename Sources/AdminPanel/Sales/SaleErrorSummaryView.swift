import HTMLTemplates

/// The sale form's error summary: a heading and one link per wrong field.
struct SaleErrorSummaryView: TemplateView {
    var heading: String
    var items: [SaleErrorItemView]

    static let templateFields = ViewFields<SaleErrorSummaryView>([
        .text("heading") { $0.heading },
        .list("items") { $0.items },
    ])
}
