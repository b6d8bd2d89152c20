import Foundation
import HTTPServer
import OpenMarketCore

/// `POST /activity/{id}/revert` and `POST /activity/bulk/{run}/revert`: a change from the activity log
/// undone.
///
/// Handlers: `RevertPages.swift`, `RevertRunner.swift`. `PanelApp` builds it with the dependencies below.
struct RevertController: Sendable, PageHandling, CatalogWriting {
    let pages: Pages
    let configuration: PanelConfiguration
    let client: OpenMarketClient
    let catalog: CatalogService
    /// Every product write: the API, the copy, the activity row, the trash keep.
    let writer: ProductWriter
    let presenter: ProductPresenter
    let deleteGate: AttemptGate
    let activity: ActivityLog
    let reverts: KeyedQueue<String>
}
