import HTMLTemplates

/// `{{#name}}…{{message}}…{{/name}}`: a notice shown only when there is one.
struct MessageView: TemplateView {
    var message: String
    static let templateFields: ViewFields<MessageView> = [.text("message") { $0.message }]
}
