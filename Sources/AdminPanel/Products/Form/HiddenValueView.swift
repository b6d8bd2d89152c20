import HTMLTemplates

/// `{{#name}}<input type="hidden" … value="{{value}}">{{/name}}`: a hidden field sent only when set.
struct HiddenValueView: TemplateView {
    var value: String
    static let templateFields: ViewFields<HiddenValueView> = [.text("value") { $0.value }]
}
