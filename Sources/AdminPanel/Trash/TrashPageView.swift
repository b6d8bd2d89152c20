import HTMLTemplates

/// `trash.html`: the products the panel deleted and keeps, newest first; editors get a restore
/// form on each.
struct TrashPageView: PageView {
    static let template = "trash"
    var intro: String
    var items: [TrashItemView]
    var access = PageAccess()

    static let templateFields = ViewFields<TrashPageView>([
        .text("intro") { $0.intro },
        .flag("empty") { $0.items.isEmpty },
        .list("items") { $0.items },
    ] + PageAccess.fields())
}

/// One kept product: who deleted it and when, until when it is kept.
struct TrashItemView: TemplateView {
    var oldID: Int
    var name: String
    var deleted: String
    var expires: String
    var restore: TrashRestoreFormView?

    static let templateFields: ViewFields<TrashItemView> = [
        .int("old_id") { $0.oldID },
        .text("name") { $0.name },
        .text("deleted") { $0.deleted },
        .text("expires") { $0.expires },
        .optionalView("restore") { $0.restore },
    ]
}

/// The restore form of one kept product; in v1 with a field for the new product password.
struct TrashRestoreFormView: TemplateView {
    var oldID: Int
    var csrfToken: String
    var v1: Bool

    static let templateFields: ViewFields<TrashRestoreFormView> = [
        .text("url") { "/trash/\($0.oldID)/restore" },
        .text("csrf_token") { $0.csrfToken },
        .flag("v1") { $0.v1 },
        .text("password_id") { "trash-password-\($0.oldID)" },
    ]
}
