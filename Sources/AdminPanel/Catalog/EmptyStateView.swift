import HTMLTemplates

/// What emptied the list, and the link that undoes it (`PanelApp.emptyState`).
struct EmptyStateView: TemplateView {
    var title: String
    var message: String
    var showRegister: Bool
    var back: LabelledLinkView?
    static let templateFields: ViewFields<EmptyStateView> = [
        .text("title") { $0.title },
        .text("message") { $0.message },
        .flag("show_register") { $0.showRegister },
        .optionalView("back") { $0.back },
    ]
}
