import HTMLTemplates

/// `revert_form.html`: the revert form of an activity row or a bulk run; v1 asks for the
/// product password.
struct RevertFormView: TemplateView {
    var url: String
    var csrfToken: String
    var label: String
    var v1: Bool
    var passwordID: String
    var passwordLabel: String

    static let templateFields = ViewFields<RevertFormView>([
        .text("url") { $0.url },
        .text("csrf_token") { $0.csrfToken },
        .text("label") { $0.label },
        .flag("v1") { $0.v1 },
        .text("password_id") { $0.passwordID },
        .text("password_label") { $0.passwordLabel },
    ])
}
