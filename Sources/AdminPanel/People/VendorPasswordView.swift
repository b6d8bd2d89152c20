import HTMLTemplates

/// The account page's vendor password section (owners): a form asking for their own password,
/// and the vendor password once it was typed right.
struct VendorPasswordView: TemplateView {
    var password: String?
    var currentPasswordError: MessageView?

    static let templateFields: ViewFields<VendorPasswordView> = [
        .optionalView("shown") { $0.password.map(TextView.init) },
        .optionalView("current_password_error") { $0.currentPasswordError },
    ]
}
