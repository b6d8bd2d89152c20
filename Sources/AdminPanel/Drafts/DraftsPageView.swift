import HTMLTemplates

/// `drafts.html`: the team's drafts, newest first.
struct DraftsPageView: PageView {
    static let template = "drafts"
    var drafts: [DraftRowView]
    var access = PageAccess()

    static let templateFields = ViewFields<DraftsPageView>([
        .flag("empty") { $0.drafts.isEmpty },
        .list("drafts") { $0.drafts },
    ] + PageAccess.fields())
}

/// One draft: its name, who saved it when, and (for editors) open and discard.
struct DraftRowView: TemplateView {
    var id: Int
    var name: String
    var saved: String
    var write: DraftActionsView?
    static let templateFields: ViewFields<DraftRowView> = [
        .int("id") { $0.id },
        .text("name") { $0.name },
        .text("saved") { $0.saved },
        .optionalView("write") { $0.write },
    ]
}

/// A draft's open link and discard form, shown to people who may write.
struct DraftActionsView: TemplateView {
    var openURL: String
    var deleteURL: String
    var csrfToken: String
    static let templateFields: ViewFields<DraftActionsView> = [
        .text("open_url") { $0.openURL },
        .text("delete_url") { $0.deleteURL },
        .text("csrf_token") { $0.csrfToken },
    ]
}
