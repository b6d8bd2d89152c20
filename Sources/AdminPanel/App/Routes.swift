import HTTPServer
import OpenMarketCore

extension PanelApp {
    /// Every route with the access it needs (docs/architecture.md, "Routes"). Anyone reaches
    /// sign-in, setup and invitation links, assets and health; everything else needs a signed-in
    /// person; pages and actions that write products need an editor, people need an owner, and
    /// everyone may sign out and manage their own account. `RouteTableTests` lists them all.
    static let staticPattern = "/static/{path...}"

    static let routeTable: RouteTable = {
        var routes = RouteTable()
        routes.get("/", .viewer, plain: { _, _ in .redirect(to: "/products", status: 303) })
        routes.get("/products", .viewer, page: { app, request in try await app.listPage(request) })
        routes.post("/products", .editor, bodyLimit: .upload, page: { app, request in try await app.registerProduct(request) })
        routes.get("/products/refresh", .viewer, page: { app, request in try await app.refreshCatalog(request) })
        routes.get("/products/export.csv", .viewer, page: { app, request in try await app.exportCatalog(request) })
        routes.get("/products/newest.json", .viewer, plain: { app, request in try await app.newestProduct(request) })
        routes.post("/products/bulk", .editor, bodyLimit: .bytes(64 * 1024), page: { app, request in try await app.bulkAction(request) })
        registerImportRoutes(into: &routes)
        routes.get("/products/{id}/duplicate", .editor, page: { app, request in try await app.duplicateForm(request) })
        routes.get("/products/new", .editor, page: { app, request in try await app.registerForm(request) })
        routes.get("/products/{id}", .viewer, page: { app, request in try await app.detailPage(request) })
        routes.get("/products/{id}/edit", .editor, page: { app, request in try await app.editForm(request) })
        routes.post("/products/{id}/edit", .editor, bodyLimit: .productEdit, page: { app, request in try await app.updateProduct(request) })
        routes.get("/products/{id}/delete", .editor, page: { app, request in try await app.deletePrompt(request) })
        routes.post("/products/{id}/delete", .editor, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.deleteProduct(request) })
        routes.get("/uploads/{token}/{image}", .viewer, page: { app, request in try await app.stagedPreview(request) })
        routes.get("/media/{path...}", .viewer, plain: { app, request in try await app.mediaFile(request) })
        routes.get("/healthz", .anyone, plain: { app, request in try await app.health(request) })
        registerSalesRoutes(into: &routes)
        routes.get(staticPattern, .anyone, plain: { app, request in
            app.staticFiles.response(for: request.pathParameters["path"] ?? "", request: request)
        })
        routes.get("/login", .anyone, page: { app, request in try await app.loginForm(request) })
        routes.post("/login", .anyone, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.login(request) })
        routes.post("/logout", .viewer, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.logout(request) })
        routes.get("/setup/{token}", .anyone, page: { app, request in try await app.setupForm(request) })
        routes.post("/setup/{token}", .anyone, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.setup(request) })
        routes.get("/invite/{token}", .anyone, page: { app, request in try await app.invitationForm(request) })
        routes.post("/invite/{token}", .anyone, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.acceptInvitation(request) })
        routes.get("/people", .owner, page: { app, request in try await app.peoplePage(request) })
        routes.post("/people", .owner, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.invitePerson(request) })
        routes.post("/people/{name}/role", .owner, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.changeRole(request) })
        routes.post("/people/{name}/disable", .owner, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.disablePerson(request) })
        routes.post("/people/{name}/reset", .owner, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.resetPerson(request) })
        routes.get("/account", .viewer, page: { app, request in try await app.accountPage(request) })
        routes.post("/account/password", .viewer, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.changePassword(request) })
        routes.post("/account/sessions/others/revoke", .viewer, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.revokeOtherSessions(request) })
        routes.post("/account/sessions/{handle}/revoke", .viewer, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.revokeSession(request) })
        routes.get("/activity", .viewer, page: { app, request in try await app.activityPage(request) })
        registerSafetyRoutes(into: &routes)
        return routes
    }()

    /// The panel's router: the route table inside the guards, every response with the security headers.
    func routes() -> Router {
        var router = Router()
        if configuration.tls != nil { router.use(HTTPSHeaders.middleware) }
        router.use(SecurityHeaders.middleware)
        router.use(RetryAfter.middleware(fallback: WholeNumber.clamped(configuration.deleteAttemptWindow, rounding: .up)))
        router.use(hostCheckMiddleware())
        router.use(originCheckMiddleware())
        router.use(accessMiddleware(Self.routeTable))
        for route in Self.routeTable.routes where route.pattern != Self.staticPattern {
            let handler: HTTPHandler
            if route.isPage {
                handler = pageHandler(route.handler)
            } else {
                let plain = route.handler
                handler = { [self] request in try await plain(self, request) }
            }
            router.add(route.method, route.pattern, bodyLimit: route.bodyLimit.bytes(configuration), handler)
        }
        // The assets' route is the server's static route: the same handler, plus the fast path that
        // answers plain requests on the connection's loop (StaticFastPath). The table keeps its entry
        // for the access it declares.
        registerStaticFiles(into: &router)
        router.notFoundHandler = { [self] request in
            await errorPage(.notFound(), request: request)
        }
        // A body over a route's limit, refused by the server before reading it: the 413 page.
        router.payloadTooLargeHandler = { [self] request in
            await errorPage(failure(for: HTTPError(status: 413, message: "Body exceeds the limit")), request: request)
        }
        return router
    }
}
