import HTMLTemplates

/// `login.html`: the sign-in form, with the name typed so far and why the last try failed.
struct LoginPageView: PageView {
    static let template = "login"
    var csrfToken: String
    /// Where to go after signing in (already checked by `SessionController.safeNext`).
    var next: String
    var name: String
    /// Nobody can sign in yet: the owner has still to open the setup link.
    var noOwner: Bool
    var alert: MessageView?
    var access = PageAccess()

    static let templateFields = ViewFields<LoginPageView>([
        .text("csrf_token") { $0.csrfToken },
        .text("next") { $0.next },
        .text("name") { $0.name },
        .flag("no_owner") { $0.noOwner },
        .optionalView("alert") { $0.alert },
    ] + PageAccess.fields())
}
