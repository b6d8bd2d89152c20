import HTMLTemplates

/// One product of a revert's result (`data-revert-product`, `data-outcome`), with the fields
/// changed since the row (`data-conflict`) when there are any.
struct RevertProductView: TemplateView {
    var id: Int
    var name: String
    var outcome: String
    var status: String
    var conflicts: [RevertConflictView]

    static let templateFields = ViewFields<RevertProductView>([
        .int("id") { $0.id },
        .text("url") { "/products/\($0.id)" },
        .text("name") { $0.name },
        .text("outcome") { $0.outcome },
        .text("status") { $0.status },
        // `{{#conflict}}` shows its table once when there is a conflict; the rows read `changes`.
        .optionalView("conflict") { $0.conflicts.isEmpty ? nil : RevertConflictsView(changes: $0.conflicts) },
    ])
}
