/// What a person may do (docs/lan-console.md, "People and roles"). `owner`: everything, including people;
/// `editor`: register, edit, delete, bulk; `viewer`: reads only.
enum Role: String, Sendable, CaseIterable, Comparable {
    case owner, editor, viewer

    /// Register, edit, delete, bulk: every product write.
    var canWrite: Bool { self != .viewer }
    /// `/people`: invitations, roles, disable, reset.
    var canManagePeople: Bool { self == .owner }

    private var rank: Int {
        switch self {
        case .owner: 0
        case .editor: 1
        case .viewer: 2
        }
    }

    static func < (a: Role, b: Role) -> Bool { a.rank < b.rank }
}

extension Role {
    /// The catalog key of the role's name (`role_owner`…).
    var labelKey: String { "role_" + rawValue }
}
