import HTTPServer
import OpenMarketCore

extension PanelApp {
    /// The panel's routes (docs/architecture.md, "Routes"), wrapped so every response carries the security headers.
    func routes() -> Router {
        var router = Router()
        if configuration.tls != nil { router.use(HTTPSHeaders.middleware) }
        router.use(SecurityHeaders.middleware)
        router.use(RetryAfter.middleware(fallback: WholeNumber.clamped(configuration.deleteAttemptWindow, rounding: .up)))
        router.use(hostCheckMiddleware())
        router.use(originCheckMiddleware())
        router.use(accessControlMiddleware())
        router.use(roleMiddleware())

        router.get("/") { _ in .redirect(to: "/products", status: 303) }
        router.get("/products", pageHandler { app, request in try await app.listPage(request) })
        router.post("/products", bodyLimit: configuration.uploadLimit, pageHandler { app, request in try await app.registerProduct(request) })
        router.get("/products/refresh", pageHandler { app, request in try await app.refreshCatalog(request) })
        router.get("/products/export.csv", pageHandler { app, request in try await app.exportCatalog(request) })
        router.get("/products/newest.json") { [self] request in try await newestProduct(request) }
        router.post("/products/bulk", bodyLimit: 64 * 1024, pageHandler { app, request in try await app.bulkAction(request) })
        registerImportRoutes(into: &router)
        router.get("/products/{id}/duplicate", pageHandler { app, request in try await app.duplicateForm(request) })
        router.get("/products/new", pageHandler { app, request in try await app.registerForm(request) })
        router.get("/products/{id}", pageHandler { app, request in try await app.detailPage(request) })
        router.get("/products/{id}/edit", pageHandler { app, request in try await app.editForm(request) })
        // v1 edits may replace the images: the register form's limit then.
        let editLimit = configuration.api.dialect == .v1 ? configuration.uploadLimit : 64 * 1024
        router.post("/products/{id}/edit", bodyLimit: editLimit, pageHandler { app, request in try await app.updateProduct(request) })
        router.get("/products/{id}/delete", pageHandler { app, request in try await app.deletePrompt(request) })
        router.post("/products/{id}/delete", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.deleteProduct(request) })
        router.get("/uploads/{token}/{image}", pageHandler { app, request in try await app.stagedPreview(request) })
        router.get("/media/{path...}") { [self] request in try await mediaFile(request) }
        router.get("/healthz") { [self] request in try await health(request) }
        registerSalesRoutes(into: &router)
        registerStaticFiles(into: &router)
        router.get("/login", pageHandler { app, request in try await app.loginForm(request) })
        router.post("/login", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.login(request) })
        router.post("/logout", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.logout(request) })
        router.get("/setup/{token}", pageHandler { app, request in try await app.setupForm(request) })
        router.post("/setup/{token}", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.setup(request) })
        router.get("/invite/{token}", pageHandler { app, request in try await app.invitationForm(request) })
        router.post("/invite/{token}", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.acceptInvitation(request) })
        router.get("/people", pageHandler { app, request in try await app.peoplePage(request) })
        router.post("/people", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.invitePerson(request) })
        router.post("/people/{name}/role", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.changeRole(request) })
        router.post("/people/{name}/disable", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.disablePerson(request) })
        router.post("/people/{name}/reset", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.resetPerson(request) })
        router.get("/account", pageHandler { app, request in try await app.accountPage(request) })
        router.post("/account/password", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.changePassword(request) })
        router.post("/account/sessions/others/revoke", bodyLimit: 16 * 1024,
                    pageHandler { app, request in try await app.revokeOtherSessions(request) })
        router.post("/account/sessions/{handle}/revoke", bodyLimit: 16 * 1024,
                    pageHandler { app, request in try await app.revokeSession(request) })
        router.get("/activity", pageHandler { app, request in try await app.activityPage(request) })
        registerSafetyRoutes(into: &router)
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
