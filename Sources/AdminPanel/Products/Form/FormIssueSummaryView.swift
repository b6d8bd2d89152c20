import HTMLTemplates

/// The box at the top of a form with problems: a heading and a link to each field's message.
struct FormIssueSummaryView: TemplateView {
    var heading: String
    var items: [FormIssueLinkView]
    static let templateFields: ViewFields<FormIssueSummaryView> = [
        .text("heading") { $0.heading },
        .list("items") { $0.items },
    ]
}

/// One problem in the summary, linking to its field (`content` when it has none).
struct FormIssueLinkView: TemplateView {
    var fieldID: String
    var message: String
    static let templateFields: ViewFields<FormIssueLinkView> = [
        .text("field_id") { $0.fieldID },
        .text("message") { $0.message },
    ]
}
