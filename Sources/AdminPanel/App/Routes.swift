import HTTPServer
import OpenMarketCore

extension PanelApp {
    /// The panel's router: every route inside the guards, every response with the security headers.
    /// Each controller registers its own routes beside its handlers (`CatalogController.register(on:)`),
    /// with the access each needs; the overview is `RouteTableTests`, which lists them all. Anyone
    /// reaches sign-in, setup and invitation links, assets and health; everything else needs a
    /// signed-in person; pages and actions that write products need an editor, people need an
    /// owner, and everyone may sign out and manage their own account.
    func routes() -> Router<PanelContext> {
        var routes = Router(context: PanelContext.self)
        if configuration.tls != nil { routes.use(HTTPSHeaders.middleware) }
        routes.use(SecurityHeaders.middleware)
        routes.use(RetryAfter.middleware(fallback: WholeNumber.clamped(configuration.deleteAttemptWindow, rounding: .up)))
        routes.use(hostCheckMiddleware())
        routes.use(originCheckMiddleware())
        routes.use(accessMiddleware())
        routes.get("/", .viewer, plain: { _, _ in .redirect(to: "/products", status: 303) })
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
        // Assets: the server's static route, answered on the connection's loop when it can.
        controllers.staticController.registerStaticFiles(into: &routes)
        SessionController.register(on: &routes)
        PeopleController.register(on: &routes)
        AccountController.register(on: &routes)
        ActivityController.register(on: &routes)
        TrashController.register(on: &routes)
        RevertController.register(on: &routes)
        DraftController.register(on: &routes)
        routes.setBodyLimits { [configuration] route in route.options.bodyLimit.bytes(configuration) }
        // No route answers: once the access check passed, the not-found page.
        routes.notFoundHandler = { [pages] _, context in pages.errorPage(.notFound(), context: context) }
        // A body over a route's limit, refused by the server before reading it: the 413 page.
        routes.payloadTooLargeHandler = { [self] request, context in
            let context = context.hasVisitor ? context : await visitors.context(for: request, access: context.access)
            return pages.errorPage(pages.failure(for: HTTPError(status: 413, message: "Body exceeds the limit")), context: context)
        }
        return routes
    }
}
