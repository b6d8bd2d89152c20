import Foundation
import HTTPServer
import OpenMarketCore

/// `/activity` (who changed what) and the product page's history, with their revert forms.
///
/// Handlers: `ActivityPage.swift`, `ActivityRevertForms.swift`. `PanelApp` builds it with the
/// dependencies below.
struct ActivityController: Sendable, PageHandling {
    let pages: Pages
    let configuration: PanelConfiguration
    let people: PeopleStore
    let catalog: CatalogService
    let activity: ActivityLog
    let dialect: any PanelDialect
}
