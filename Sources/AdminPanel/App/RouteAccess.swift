import Foundation
import HTTPServer

/// Who may reach a route: anyone (sign-in, setup and invitation links, assets, health), or a
/// signed-in, active person with at least this role (owner < editor < viewer).
enum RouteAccess: Sendable, Equatable, CustomStringConvertible {
    case anyone
    case signedIn(Role)

    static let viewer = RouteAccess.signedIn(.viewer)
    static let editor = RouteAccess.signedIn(.editor)
    static let owner = RouteAccess.signedIn(.owner)

    /// The stricter of two accesses (a signed-in role is stricter than anyone; owner than editor).
    func stricter(_ other: RouteAccess) -> RouteAccess {
        switch (self, other) {
        case (.anyone, _): other
        case (_, .anyone): self
        case (.signedIn(let a), .signedIn(let b)): .signedIn(a <= b ? a : b)
        }
    }

    var description: String {
        switch self {
        case .anyone: "anyone"
        case .signedIn(let role): role.rawValue
        }
    }
}
