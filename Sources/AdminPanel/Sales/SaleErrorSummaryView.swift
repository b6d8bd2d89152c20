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

/// One wrong field in the summary: `#{{field_id}}` and its message.
struct SaleErrorItemView: TemplateView {
    var fieldID: String
    var message: String

    static let templateFields = ViewFields<SaleErrorItemView>([
        .text("field_id") { $0.fieldID },
        .text("message") { $0.message },
    ])
}
