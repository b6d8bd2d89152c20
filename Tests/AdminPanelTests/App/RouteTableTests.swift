import Foundation
import Testing
import HTTPClient
import HTTPServer
import OpenMarketCore
@testable import AdminPanel

/// Every route of the panel and who may reach it, in one place, read off the panel's router. A
/// new route fails this test until it is added here: its access is then a decision someone made
/// and reviewed.
@Suite struct RouteTableTests {
    /// The router of a panel built in a scratch folder (no upstream is ever called).
    static let router: Router<PanelContext> = {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("route-table-\(UUID().uuidString)")
        var configuration = PanelConfiguration(
            api: ClientConfiguration(baseURL: URL(string: "http://127.0.0.1:9")!, dialect: .v2a, identifier: "x", secret: "x"),
            vendorID: 7, publicDirectory: PanelHarness.repository.appendingPathComponent("Public"),
            templatesDirectory: PanelHarness.repository.appendingPathComponent("Templates"))
        configuration.dataDirectory = data
        configuration.accessLog = nil
        return try! PanelApp(configuration: configuration, transport: PooledTransport()).routes()
    }()

    /// The access a request needs: the context the router starts it with.
    static func access(method: String, path: String) throws -> RouteAccess {
        PanelContext(request: try HTTPRequest(method: method, target: path), route: router.lookup(method: method, path: path)).access
    }

    /// The least role a request needs (owner < editor < viewer); `.viewer` when anyone may send it.
    static func roleNeeded(method: String, path: String) throws -> Role {
        if case .signedIn(let role) = try access(method: method, path: path) { return role }
        return .viewer
    }

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
        let declared = Self.router.routes.map { "\($0.method) \($0.pattern.template) \($0.options.access)" }
        #expect(declared == Self.expected)
        // Nothing that writes is open to a viewer except their own account and signing out.
        for route in Self.router.routes where route.method != "GET" && route.options.access == .viewer {
            #expect(route.pattern.template == "/logout" || route.pattern.template.hasPrefix("/account/"), "\(route.pattern.template)")
        }
    }

    /// A request no route answers still needs what the routes beside it need: a 405 reveals no
    /// more than the route itself would, a 404 needs a signed-in person (an editor to post).
    @Test func requestsNoRouteAnswersNeedTheirNeighboursAccess() throws {
        #expect(try Self.access(method: "GET", path: "/products/new") == .editor)       // not /products/{id}
        #expect(try Self.access(method: "HEAD", path: "/products/12") == .viewer)
        #expect(try Self.access(method: "GET", path: "/products/import/abc/status.json") == .editor)
        #expect(try Self.access(method: "GET", path: "/people/a/role") == .owner)      // 405 for an owner only
        #expect(try Self.access(method: "POST", path: "/healthz") == .anyone)
        #expect(try Self.access(method: "GET", path: "/static/app.css") == .anyone)
        #expect(try Self.access(method: "GET", path: "/static/") == .anyone)
        // The router's own matcher: `{path...}` takes zero segments too, as the router routes it.
        #expect(try Self.access(method: "GET", path: "/static") == .anyone)
        #expect(try Self.access(method: "GET", path: "/nowhere") == .viewer)
        #expect(try Self.access(method: "POST", path: "/nowhere") == .editor)
        #expect(try Self.access(method: "GET", path: "/setup") == .viewer)
        #expect(try Self.access(method: "GET", path: "/products//edit") == .viewer)
    }
}
