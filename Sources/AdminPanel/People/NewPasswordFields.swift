import HTMLTemplates

/// What the partial `new_password_fields.html` shows: the first field's label (each page names
/// it) and each field's error. Setup, invitation and account pages include the partial, which
/// compiles in their scope, so each of their views adds `fields()`.
struct NewPasswordFields: Sendable {
    var label: String
    var passwordError: MessageView?
    var confirmationError: MessageView?

    static func fields<View: TemplateView>(_ get: @escaping @Sendable (ViewRef<View>) -> NewPasswordFields) -> [ViewField<View>] {
        [
            .text("new_password_label") { get($0).label },
            .optionalView("password_error") { get($0).passwordError },
            .optionalView("password_confirm_error") { get($0).confirmationError },
        ]
    }
}
