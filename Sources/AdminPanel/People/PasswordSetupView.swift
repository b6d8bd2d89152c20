import HTMLTemplates

/// `password_setup.html`: the first owner's name and password (`/setup/{token}`), or an invited
/// person's password (`/invite/{token}`), with the errors of the last try.
struct PasswordSetupView: PageView {
    static let template = "password_setup"
    var csrfToken: String
    var action: String
    var name: String
    var mode: PeopleController.PasswordPageMode
    var intro: String
    var alert: MessageView?
    var nameError: MessageView?
    var newPassword: NewPasswordFields
    var access = PageAccess()

    static let templateFields = ViewFields<PasswordSetupView>([
        .text("csrf_token") { $0.csrfToken },
        .text("action") { $0.action },
        .text("name") { $0.name },
        .flag("mode_setup") { $0.mode == .setup },
        .flag("mode_invitation") { $0.mode == .invitation },
        .text("intro") { $0.intro },
        .optionalView("alert") { $0.alert },
        .optionalView("name_error") { $0.nameError },
    ] + NewPasswordFields.fields { $0.newPassword } + PageAccess.fields())
}
