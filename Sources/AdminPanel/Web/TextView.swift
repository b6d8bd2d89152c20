import HTMLTemplates

/// `{{#name}}…{{text}}…{{/name}}`: a text with markup around it, shown only when there is one.
struct TextView: TemplateView {
    var text: String
    static let templateFields: ViewFields<TextView> = [.text("text") { $0.text }]
}
