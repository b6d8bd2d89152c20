import Foundation
import HTTPServer
import OpenMarketCore

/// `/people` (owners invite, change roles, disable, reset), `/setup/{token}` and `/invite/{token}`
/// (first owner, invited people), `/account` (one's own password and sessions).
///
/// Handlers: `PeoplePage.swift`, `SetupPages.swift`, `AccountPage.swift`, `ColleagueAddress.swift`.
/// `PanelApp` builds it with the dependencies below.
struct PeopleController: Sendable, PageHandling {
    let pages: Pages
    let configuration: PanelConfiguration
    let sessions: SessionStore
    let people: PeopleStore
    let hasher: PasswordHasher
    let signInGate: AttemptGate
    let setupToken: String?
    let activity: ActivityLog
    let dialect: any PanelDialect
    let listeningPort: ListeningPort
    let sessionController: SessionController
}
