import HTTPServer
import OpenMarketCore

extension PanelApp {
    /// Every route with the access it needs (docs/architecture.md, "Routes"). Each controller
    /// registers its own routes beside its handlers (`CatalogController.register(on:)`); the
    /// overview is `RouteTableTests`, which lists them all. Anyone reaches sign-in, setup and
    /// invitation links, assets and health; everything else needs a signed-in person; pages and
    /// actions that write products need an editor, people need an owner, and everyone may sign
    /// out and manage their own account.
    static let staticPattern = "/static/{path...}"

    static let routeTable: RouteTable = {
        var routes = RouteTable()
        routes.get("/", .viewer, plain: { _, _, _ in .redirect(to: "/products", status: 303) })
        CatalogController.register(on: &routes)
        ProductFormController.register(on: &routes)
        BulkController.register(on: &routes)
        SheetController.register(on: &routes)
        ImportController.register(on: &routes)
        ProductController.register(on: &routes)
        ProductDeleteController.register(on: &routes)
        MediaController.register(on: &routes)
        LiveController.register(on: &routes)
        HealthController.register(on: &routes)
        SalesController.register(on: &routes)
        StaticController.register(on: &routes)
        SessionController.register(on: &routes)
        PeopleController.register(on: &routes)
        AccountController.register(on: &routes)
        ActivityController.register(on: &routes)
        TrashController.register(on: &routes)
        RevertController.register(on: &routes)
        DraftController.register(on: &routes)
        return routes
    }()

    /// The access of each route, keyed by method and template for a lookup per request. HEAD is
    /// answered by the GET route.
    static let accessByRoute = routeTable.accessByRoute()

    /// The panel's router: the route table inside the guards, every response with the security headers.
    func routes() -> Router {
        var router = Router()
        if configuration.tls != nil { router.use(HTTPSHeaders.middleware) }
        router.use(SecurityHeaders.middleware)
        router.use(RetryAfter.middleware(fallback: WholeNumber.clamped(configuration.deleteAttemptWindow, rounding: .up)))
        router.use(hostCheckMiddleware())
        router.use(originCheckMiddleware())
        router.use(unroutedMiddleware(Self.routeTable))
        for route in Self.routeTable.routes where route.pattern != Self.staticPattern {
            let handler: HTTPHandler
            let access = route.access
            switch route.kind {
            case .page(let page):
                handler = { [self] request in
                    try await guarded(request, access: access) { request, context in
                        await pages.respond(request, context) { request, context in try await page(self, request, context) }
                    }
                }
            case .plain(let plain):
                handler = { [self] request in
                    try await guarded(request, access: access) { request, context in try await plain(self, request, context) }
                }
            case .open(let open):
                handler = { [self] request in try await open(self, request) }
            }
            router.add(route.method, route.pattern, bodyLimit: route.bodyLimit.bytes(configuration), handler)
        }
        // The assets' route is the server's static route: the same handler, plus the fast path that
        // answers plain requests on the connection's loop (StaticFastPath). The table keeps its entry
        // for the access it declares.
        controllers.staticController.registerStaticFiles(into: &router)
        // A body over a route's limit, refused by the server before reading it: the 413 page.
        router.payloadTooLargeHandler = { [self] request in
            try await guarded(request, access: access(of: request)) { _, context in
                pages.errorPage(pages.failure(for: HTTPError(status: 413, message: "Body exceeds the limit")), context: context)
            }
        }
        return router
    }
}
