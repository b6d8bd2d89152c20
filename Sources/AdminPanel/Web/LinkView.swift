import HTMLTemplates

/// `{{#name}}<a href="{{url}}">…{{/name}}`: a link shown only when there is one.
struct LinkView: TemplateView {
    var url: String
    static let templateFields: ViewFields<LinkView> = [.text("url") { $0.url }]
}
