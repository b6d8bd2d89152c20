import HTMLTemplates

/// `account.html`: who you are, the password form (with its errors) and your sessions.
struct AccountPageView: PageView {
    static let template = "account"
    var csrfToken: String
    var person: String
    var roleLabel: String
    var signedIn: Bool
    var sessions: [AccountSessionView]
    var alert: MessageView?
    var currentPasswordError: MessageView?
    var newPassword: NewPasswordFields
    /// Owners only: the form that shows the vendor password after their own password.
    var vendorPassword: VendorPasswordView?
    var access = PageAccess()

    static let templateFields = ViewFields<AccountPageView>([
        .text("csrf_token") { $0.csrfToken },
        .text("person") { $0.person },
        .text("role_label") { $0.roleLabel },
        .flag("signed_in") { $0.signedIn },
        .list("sessions") { $0.sessions },
        .flag("has_others") { $0.sessions.count > 1 },
        .optionalView("alert") { $0.alert },
        .optionalView("current_password_error") { $0.currentPasswordError },
        .optionalView("vendor_password") { $0.vendorPassword },
    ] + NewPasswordFields.fields { $0.newPassword } + PageAccess.fields())
}
