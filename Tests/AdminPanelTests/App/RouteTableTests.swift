import Foundation
import Testing
@testable import AdminPanel

/// Every route of the panel and who may reach it, in one place. A new route fails this test
/// until it is added here: its access is then a decision someone made and reviewed.
@Suite struct RouteTableTests {
    static let expected: [String] = [
        "GET / viewer",
        "GET /products viewer",
        "GET /products/refresh viewer",
        "GET /products/export.csv viewer",
        "GET /products/export.xlsx viewer",
        "GET /products/export-edit.csv editor",
        "GET /products/export-edit.xlsx editor",
        "GET /products/newest.json viewer",
        "POST /products editor",
        "GET /products/{id}/duplicate editor",
        "GET /products/new editor",
        "GET /products/{id}/edit editor",
        "POST /products/{id}/edit editor",
        "POST /products/bulk editor",
        "GET /products/sheet viewer",
        "POST /products/sheet editor",
        "GET /products/import editor",
        "POST /products/import editor",
        "GET /products/import/{import} editor",
        "GET /products/import/{import}/status.json editor",
        "POST /products/import/{import}/apply editor",
        "GET /products/import/{import}/errors.csv editor",
        "POST /products/import/{import}/file editor",
        "GET /products/{id} viewer",
        "GET /products/{id}/delete editor",
        "POST /products/{id}/delete editor",
        "GET /uploads/{token}/{image} viewer",
        "GET /media/{path...} viewer",
        "GET /events viewer",
        "GET /healthz anyone",
        "GET /sales viewer",
        "POST /products/{id}/sales editor",
        "POST /sales/{id}/cancel editor",
        "POST /sales/runs/{run}/cancel editor",
        "GET /static/{path...} anyone",
        "GET /login anyone",
        "POST /login anyone",
        "POST /logout viewer",
        "GET /setup/{token} anyone",
        "POST /setup/{token} anyone",
        "GET /invite/{token} anyone",
        "POST /invite/{token} anyone",
        "GET /people owner",
        "POST /people owner",
        "POST /people/{name}/role owner",
        "POST /people/{name}/disable owner",
        "POST /people/{name}/reset owner",
        "GET /account viewer",
        "POST /account/password viewer",
        "POST /account/vendor-password owner",
        "POST /account/sessions/others/revoke viewer",
        "POST /account/sessions/{handle}/revoke viewer",
        "GET /activity viewer",
        "GET /trash viewer",
        "POST /trash/{id}/restore editor",
        "POST /activity/bulk/{run}/revert editor",
        "POST /activity/{id}/revert editor",
        "GET /drafts viewer",
        "GET /drafts/{id} viewer",
        "POST /drafts/{id}/delete editor",
    ]

    @Test func everyRouteStatesWhoMayReachIt() {
        let declared = PanelApp.routeTable.routes.map { "\($0.method) \($0.pattern) \($0.access)" }
        #expect(declared == Self.expected)
        // Nothing that writes is open to a viewer except their own account and signing out.
        for route in PanelApp.routeTable.routes where route.method != "GET" && route.access == .viewer {
            #expect(route.pattern == "/logout" || route.pattern.hasPrefix("/account/"), "\(route.pattern)")
        }
    }

    /// A request no route answers still needs what the routes beside it need: a 405 reveals no
    /// more than the route itself would, a 404 needs a signed-in person (an editor to post).
    @Test func requestsNoRouteAnswersNeedTheirNeighboursAccess() {
        let table = PanelApp.routeTable
        #expect(table.access(method: "GET", path: "/products/new") == .editor)       // not /products/{id}
        #expect(table.access(method: "HEAD", path: "/products/12") == .viewer)
        #expect(table.access(method: "GET", path: "/products/import/abc/status.json") == .editor)
        #expect(table.access(method: "GET", path: "/people/a/role") == .owner)      // 405 for an owner only
        #expect(table.access(method: "POST", path: "/healthz") == .anyone)
        #expect(table.access(method: "GET", path: "/static/app.css") == .anyone)
        #expect(table.access(method: "GET", path: "/static/") == .anyone)
        // The router's own matcher: `{path...}` takes zero segments too, as the router routes it.
        #expect(table.access(method: "GET", path: "/static") == .anyone)
        #expect(table.access(method: "GET", path: "/nowhere") == .viewer)
        #expect(table.access(method: "POST", path: "/nowhere") == .editor)
        #expect(table.access(method: "GET", path: "/setup") == .viewer)
        #expect(table.access(method: "GET", path: "/products//edit") == .viewer)
    }
}
