import HTMLTemplates

/// The table of a revert's conflicts.
struct RevertConflictsView: TemplateView {
    var changes: [RevertConflictView]
    static let templateFields: ViewFields<RevertConflictsView> = [.list("changes") { $0.changes }]
}
