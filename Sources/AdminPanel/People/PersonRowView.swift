import HTMLTemplates

/// One person on the people page: role, status, last seen, and the forms acting on them
/// (`path` is `/people/{name}`, encoded). A refused action shows its reason in `row_error`.
struct PersonRowView: TemplateView {
    var name: String
    var path: String
    var role: String
    var roleLabel: String
    /// `active`, `invited` or `disabled` (`data-status`).
    var status: String
    var statusLabel: String
    var lastSeen: String
    var isYou: Bool
    var roles: [ListOptionView]
    var rowError: MessageView?
    var canDisable: Bool

    static let templateFields: ViewFields<PersonRowView> = [
        .text("name") { $0.name },
        .text("path") { $0.path },
        .text("role") { $0.role },
        .text("role_label") { $0.roleLabel },
        .text("status") { $0.status },
        .text("status_label") { $0.statusLabel },
        .text("last_seen") { $0.lastSeen },
        .flag("is_you") { $0.isYou },
        .list("roles") { $0.roles },
        .optionalView("row_error") { $0.rowError },
        .flag("can_disable") { $0.canDisable },
    ]
}
