import Foundation
import HTTPServer
import OpenMarketCore

/// `/activity` (who changed what) and the product page's history, with their revert forms.
///
/// Handlers: `ActivityPage.swift`, `ActivityRevertForms.swift`. `PanelControllers` builds it with the
/// dependencies below.
struct ActivityController: Sendable {
    let pages: Pages
    let people: PeopleStore
    let upstream: Upstream
    let activity: ActivityLog
    /// The sales a bulk 즉시할인 run booked, for the run's "cancel all".
    let sales: SaleStore

    var activityRows: ActivityRows { ActivityRows(configuration: pages.configuration, catalog: upstream.catalogService, activity: activity) }

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/activity", .viewer, page: \.controllers.activityController) { try await $0.activityPage($1, $2) }
    }
}
