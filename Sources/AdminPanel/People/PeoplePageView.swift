import HTMLTemplates

/// `people.html`: everyone with their role and status, the invite form (with its errors), and
/// the one-time link of an invitation or reset just made.
struct PeoplePageView: PageView {
    static let template = "people"
    var csrfToken: String
    var people: [PersonRowView]
    var inviteName: String
    var inviteRoles: [ListOptionView]
    var nameError: MessageView?
    var roleError: MessageView?
    var link: InvitationLinkView?
    /// On loopback without `--sign-in` everyone is the implicit owner: the page says so.
    var signInOff: Bool
    var access = PageAccess()

    static let templateFields = ViewFields<PeoplePageView>([
        .text("csrf_token") { $0.csrfToken },
        .list("people") { $0.people },
        .text("invite_name") { $0.inviteName },
        .list("invite_roles") { $0.inviteRoles },
        .optionalView("name_error") { $0.nameError },
        .optionalView("role_error") { $0.roleError },
        .optionalView("link") { $0.link },
        .flag("sign_in_off") { $0.signInOff },
    ] + PageAccess.fields())
}
