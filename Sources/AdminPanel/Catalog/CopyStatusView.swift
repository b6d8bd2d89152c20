import HTMLTemplates

/// How old the local catalog copy is, with a warning when syncing fails (`copyStatusView`).
struct CopyStatusView: TemplateView {
    var ageSeconds: Int
    var ageText: String
    var warning: MessageView?
    static let templateFields: ViewFields<CopyStatusView> = [
        .int("age_seconds") { $0.ageSeconds },
        .text("age_text") { $0.ageText },
        .optionalView("warning") { $0.warning },
    ]
}
