import HTMLTemplates

/// `activity_row.html`: one activity row, the same view on the `/activity` list (inside a bulk
/// run too) and in a product's history. Built by `ActivityRowPresenter`.
struct ActivityRowView: TemplateView {
    var action: String
    var actionLabel: String
    var person: String
    var address: String
    var time: String
    var timeISO: String
    var product: LabelledLinkView?
    var detail: TextView?
    var changes: [ActivityChangeView]
    /// Set on the activity page for writers; always a field of the row, so a row never shows
    /// the form of the run around it.
    var revert: RevertFormView?
    /// A later revert set this row's change back: marked, and it offers no second revert.
    var reverted = false

    static let templateFields = ViewFields<ActivityRowView>([
        .text("action") { $0.action },
        .text("action_label") { $0.actionLabel },
        .text("person") { $0.person },
        .text("address") { $0.address },
        .text("time") { $0.time },
        .text("time_iso") { $0.timeISO },
        .optionalView("product") { $0.product },
        .optionalView("detail") { $0.detail },
        .list("changes") { $0.changes },
        .flag("has_changes") { !$0.changes.isEmpty },
        .optionalView("revert") { $0.revert },
        .flag("reverted") { $0.reverted },
    ])
}
