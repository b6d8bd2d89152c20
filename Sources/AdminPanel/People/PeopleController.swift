import Foundation
import HTTPServer
import OpenMarketCore

/// `/people` (owners invite, change roles, disable, reset), `/setup/{token}` and `/invite/{token}`
/// (first owner, invited people).
///
/// Handlers: `PeoplePage.swift`, `SetupPages.swift`, `ColleagueAddress.swift`. `PanelControllers`
/// builds it with the dependencies below.
struct PeopleController: Sendable {
    let pages: Pages
    /// The people, their sessions and activity rows; signing a new owner or invitee in.
    let accounts: Accounts
    let hasher: PasswordHasher
    /// The first owner's one-time setup link (nil once an owner exists).
    let setupToken: String?
    /// The port colleagues' invitation links name.
    let listeningPort: ListeningPort

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
    }
}
