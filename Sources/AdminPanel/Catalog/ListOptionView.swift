import HTMLTemplates

/// One choice of a select or radio group on the list page (sort, page size, show, stock,
/// currency, bulk action) and of the people page's role selects: `{{value}}`, `{{label}}`, and
/// `selected` / `checked` for the chosen one.
struct ListOptionView: TemplateView {
    var value: String
    var label: String
    var chosen: Bool
    static let templateFields: ViewFields<ListOptionView> = [
        .text("value") { $0.value },
        .text("label") { $0.label },
        .flag("selected") { $0.chosen },
        .flag("checked") { $0.chosen },
    ]
}
