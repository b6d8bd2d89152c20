import HTMLTemplates

/// One person of the activity page's filter: `{{name}}`, `selected` for the chosen one.
struct ActivityPersonOptionView: TemplateView {
    var name: String
    var selected: Bool

    static let templateFields = ViewFields<ActivityPersonOptionView>([
        .text("name") { $0.name },
        .flag("selected") { $0.selected },
    ])
}
