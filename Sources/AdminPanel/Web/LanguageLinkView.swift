import HTMLTemplates

/// One entry of the header's language switch.
struct LanguageLinkView: TemplateView {
    var code: String
    var label: String
    var url: String
    var current: Bool
    static let templateFields: ViewFields<LanguageLinkView> = [
        .text("code") { $0.code },
        .text("label") { $0.label },
        .text("url") { $0.url },
        .flag("current") { $0.current },
    ]
}
