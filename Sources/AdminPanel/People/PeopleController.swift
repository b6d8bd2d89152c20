import Foundation
import HTTPServer
import OpenMarketCore

/// `/people` (owners invite, change roles, disable, reset), `/setup/{token}` and `/invite/{token}`
/// (first owner, invited people), `/account` (one's own password and sessions).
///
/// Handlers: `PeoplePage.swift`, `SetupPages.swift`, `AccountPage.swift`, `ColleagueAddress.swift`.
/// `PanelControllers` builds it with the dependencies below.
struct PeopleController: Sendable {
    let pages: Pages
    let sessionStart: SessionStart
    let hasher: PasswordHasher
    let signInGate: AttemptGate
    let setupToken: String?
    let dialect: any PanelDialect
    let listeningPort: ListeningPort

    // Parts of the groups it holds, under the names its handlers use.
    var configuration: PanelConfiguration { pages.configuration }
    var sessions: SessionStore { sessionStart.sessions }
    var people: PeopleStore { sessionStart.people }
    var activity: ActivityLog { sessionStart.activity }

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/setup/{token}", .anyone, page: \.controllers.peopleController) { try await $0.setupForm($1, $2) }
        routes.post("/setup/{token}", .anyone, bodyLimit: .bytes(16 * 1024), page: \.controllers.peopleController) { try await $0.setup($1, $2) }
        routes.get("/invite/{token}", .anyone, page: \.controllers.peopleController) { try await $0.invitationForm($1, $2) }
        routes.post("/invite/{token}", .anyone, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.peopleController) { try await $0.acceptInvitation($1, $2) }
        routes.get("/people", .owner, page: \.controllers.peopleController) { try await $0.peoplePage($1, $2) }
        routes.post("/people", .owner, bodyLimit: .bytes(16 * 1024), page: \.controllers.peopleController) { try await $0.invitePerson($1, $2) }
        routes.post("/people/{name}/role", .owner, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.peopleController) { try await $0.changeRole($1, $2) }
        routes.post("/people/{name}/disable", .owner, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.peopleController) { try await $0.disablePerson($1, $2) }
        routes.post("/people/{name}/reset", .owner, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.peopleController) { try await $0.resetPerson($1, $2) }
        routes.get("/account", .viewer, page: \.controllers.peopleController) { try await $0.accountPage($1, $2) }
        routes.post("/account/password", .viewer, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.peopleController) { try await $0.changePassword($1, $2) }
        routes.post("/account/vendor-password", .owner, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.peopleController) { try await $0.showVendorPassword($1, $2) }
        routes.post("/account/sessions/others/revoke", .viewer, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.peopleController) { try await $0.revokeOtherSessions($1, $2) }
        routes.post("/account/sessions/{handle}/revoke", .viewer, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.peopleController) { try await $0.revokeSession($1, $2) }
    }
}
