import HTMLTemplates

/// The edit form's "changed meanwhile" table: when opened, now, yours; and a link to start again.
struct ConflictView: TemplateView {
    var changes: [FieldChange]
    var reloadURL: String
    static let templateFields: ViewFields<ConflictView> = [
        .list("changes") { $0.changes },
        .text("reload_url") { $0.reloadURL },
    ]
}

extension FieldChange: TemplateView {
    static let templateFields: ViewFields<FieldChange> = [
        .text("field") { $0.field },
        .text("was") { $0.was },
        .text("now") { $0.now },
        .text("yours") { $0.yours },
    ]
}
