import Foundation
import HTTPServer
import OpenMarketCore

/// `POST /activity/{id}/revert` and `POST /activity/bulk/{run}/revert`: a change from the activity log
/// undone.
///
/// Handlers: `RevertPages.swift`, `RevertRunner.swift`. `PanelControllers` builds it with the dependencies below.
struct RevertController: Sendable, CatalogWriting {
    let pages: Pages
    let upstream: Upstream
    let presenter: ProductPresenter
    let deleteGate: AttemptGate
    let activity: ActivityLog
    let reverts: KeyedQueue<String>

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.post("/activity/bulk/{run}/revert", .editor, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.revertController) { try await $0.revertBulkRun($1, $2) }
        routes.post("/activity/{id}/revert", .editor, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.revertController) { try await $0.revertRow($1, $2) }
    }
}
