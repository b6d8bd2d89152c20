import HTMLTemplates

/// One field changed since the row: its value in the row, now, and what the revert left.
struct RevertConflictView: TemplateView {
    var field: String
    var was: String
    var now: String
    var yours: String

    static let templateFields = ViewFields<RevertConflictView>([
        .text("field") { $0.field },
        .text("was") { $0.was },
        .text("now") { $0.now },
        .text("yours") { $0.yours },
    ])
}
