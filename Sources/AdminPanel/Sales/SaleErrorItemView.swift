import HTMLTemplates

/// One wrong field in the summary: `#{{field_id}}` and its message.
struct SaleErrorItemView: TemplateView {
    var fieldID: String
    var message: String

    static let templateFields = ViewFields<SaleErrorItemView>([
        .text("field_id") { $0.fieldID },
        .text("message") { $0.message },
    ])
}
