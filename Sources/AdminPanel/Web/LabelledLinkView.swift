import HTMLTemplates

/// A link with its own words: `{{url}}` and `{{label}}`.
struct LabelledLinkView: TemplateView {
    var url: String
    var label: String
    static let templateFields: ViewFields<LabelledLinkView> = [.text("url") { $0.url }, .text("label") { $0.label }]
}
