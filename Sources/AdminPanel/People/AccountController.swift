import Foundation
import HTTPServer
import OpenMarketCore

/// `/account`: one's own password and sessions, and for an owner the vendor password.
///
/// Handlers: `AccountPage.swift`. `PanelControllers` builds it with the dependencies below.
struct AccountController: Sendable {
    let pages: Pages
    /// One's own person, sessions and activity rows.
    let accounts: Accounts
    let hasher: PasswordHasher
    /// The sign-in limits, which a current password typed here counts toward too.
    let signInGate: AttemptGate
    /// Whether there is a vendor password to show (v2 dialects).
    let dialect: any PanelDialect

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/account", .viewer, page: \.controllers.accountController) { try await $0.accountPage($1, $2) }
        routes.post("/account/password", .viewer, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.accountController) { try await $0.changePassword($1, $2) }
        routes.post("/account/vendor-password", .owner, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.accountController) { try await $0.showVendorPassword($1, $2) }
        routes.post("/account/sessions/others/revoke", .viewer, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.accountController) { try await $0.revokeOtherSessions($1, $2) }
        routes.post("/account/sessions/{handle}/revoke", .viewer, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.accountController) { try await $0.revokeSession($1, $2) }
    }
}
