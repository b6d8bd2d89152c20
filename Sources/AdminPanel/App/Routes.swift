import HTTPServer
import OpenMarketCore

extension PanelApp {
    /// Every route with the access it needs (docs/architecture.md, "Routes"). Anyone reaches
    /// sign-in, setup and invitation links, assets and health; everything else needs a signed-in
    /// person; pages and actions that write products need an editor, people need an owner, and
    /// everyone may sign out and manage their own account. `RouteTableTests` lists them all.
    ///
    /// How to read a route: handler = `<Controller>.<method>` in `<Concept>/…` (the line says
    /// `app.catalogController.listPage`: `CatalogController.listPage`, in `Catalog/`; the comment
    /// above it names the file); template and view = the comment's `→ name.html (NameView)`:
    /// `Templates/name.html`, compiled against the `NameView` struct the handler builds. Each
    /// controller is built in `PanelApp.init` with only the dependencies it uses; its type's
    /// declaration lists them.
    static let staticPattern = "/static/{path...}"

    static let routeTable: RouteTable = {
        var routes = RouteTable()
        routes.get("/", .viewer, plain: { _, _, _ in .redirect(to: "/products", status: 303) })
        // Catalog/ListPage.swift → products.html (ProductListView)
        routes.get("/products", .viewer, page: { app, request, context in try await app.catalogController.listPage(request, context) })
        // Products/RegisterPage.swift (v1: Products/V1/V1Forms.swift) → product_new.html (ProductNewPageView)
        routes.post("/products", .editor, bodyLimit: .upload, page: { app, request, context in try await app.productFormController.registerProduct(request, context) })
        // Catalog/CatalogPages.swift (refresh, CSV, Excel, newest)
        routes.get("/products/refresh", .viewer, page: { app, request, context in try await app.catalogController.refreshCatalog(request, context) })
        routes.get("/products/export.csv", .viewer, page: { app, request, context in try await app.catalogController.exportCatalog(request, context) })
        routes.get("/products/export.xlsx", .viewer, page: { app, request, context in try await app.catalogController.exportWorkbook(request, context) })
        routes.get("/products/newest.json", .viewer, plain: { app, request, context in try await app.catalogController.newestProduct(request, context) })
        // Catalog/BulkPage.swift, Sales/SaleBulk.swift → bulk_result.html (BulkResultView)
        routes.post("/products/bulk", .editor, bodyLimit: .bytes(64 * 1024),
                    page: { app, request, context in try await app.bulkController.bulkAction(request, context) })
        // Sheet/SheetPage.swift, SheetSave.swift → sheet.html (SheetPageView)
        routes.get("/products/sheet", .viewer, page: { app, request, context in try await app.sheetController.sheetPage(request, context) })
        routes.post("/products/sheet", .editor, bodyLimit: .bytes(1024 * 1024),
                    page: { app, request, context in try await app.sheetController.saveSheet(request, context) })
        // Import/ImportPages.swift, ImportApply.swift, ImportRendering.swift → import.html (ImportFormView), import_preview.html (ImportPreviewView), import_result.html (ImportResultView)
        routes.get("/products/import", .editor, page: { app, request, context in try await app.importController.importForm(request, context) })
        // The CSV's 5 MiB plus the photos within the register form's upload limit; a body over it
        // is refused (413) before it is read.
        routes.post("/products/import", .editor, bodyLimit: .importUpload,
                    page: { app, request, context in try await app.importController.importPreview(request, context) })
        routes.get("/products/import/{import}", .editor, page: { app, request, context in try await app.importController.importPage(request, context) })
        routes.get("/products/import/{import}/status.json", .editor,
                   plain: { app, request, context in await app.importController.importStatus(request, context) })
        routes.post("/products/import/{import}/apply", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.importController.importApply(request, context) })
        // Products/DuplicatePage.swift → product_new.html (ProductNewPageView)
        routes.get("/products/{id}/duplicate", .editor, page: { app, request, context in try await app.productFormController.duplicateForm(request, context) })
        // Products/RegisterPage.swift → product_new.html (ProductNewPageView)
        routes.get("/products/new", .editor, page: { app, request, context in try await app.productFormController.registerForm(request, context) })
        // Products/DetailPage.swift → product.html (ProductDetailView)
        routes.get("/products/{id}", .viewer, page: { app, request, context in try await app.productController.detailPage(request, context) })
        // Products/EditPage.swift (v1: Products/V1/V1Forms.swift) → product_edit.html (ProductEditPageView)
        routes.get("/products/{id}/edit", .editor, page: { app, request, context in try await app.productFormController.editForm(request, context) })
        routes.post("/products/{id}/edit", .editor, bodyLimit: .productEdit,
                    page: { app, request, context in try await app.productFormController.updateProduct(request, context) })
        // Products/DeletePage.swift → product_delete.html (ProductDeletePageView)
        routes.get("/products/{id}/delete", .editor, page: { app, request, context in try await app.productController.deletePrompt(request, context) })
        routes.post("/products/{id}/delete", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.productController.deleteProduct(request, context) })
        // Uploads/StagedUploadPreview.swift
        routes.get("/uploads/{token}/{image}", .viewer, page: { app, request, context in try await app.mediaController.stagedPreview(request, context) })
        // Media/MediaProxy.swift
        routes.get("/media/{path...}", .viewer, plain: { app, request, context in try await app.mediaController.mediaFile(request, context) })
        // Live/LiveEvents.swift (text/event-stream)
        routes.get("/events", .viewer, plain: { app, request, context in await app.liveController.events(request, context) })
        // App/Health.swift
        routes.get("/healthz", open: { app, request in try await app.healthController.health(request) })
        // Sales/SalesPages.swift → sales.html (SalesPageView)
        routes.get("/sales", .viewer, page: { app, request, context in try await app.salesController.salesPage(request, context) })
        routes.post("/products/{id}/sales", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.salesController.scheduleSale(request, context) })
        routes.post("/sales/{id}/cancel", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.salesController.cancelSale(request, context) })
        // Guards/StaticFastPath.swift: Public/ through the server's static route
        routes.get(staticPattern, open: { app, request in app.staticController.asset(request) })
        // Sessions/SignIn.swift → login.html (LoginPageView)
        routes.get("/login", .anyone, page: { app, request, context in try await app.sessionController.loginForm(request, context) })
        routes.post("/login", .anyone, bodyLimit: .bytes(16 * 1024), page: { app, request, context in try await app.sessionController.login(request, context) })
        routes.post("/logout", .viewer, bodyLimit: .bytes(16 * 1024), page: { app, request, context in try await app.sessionController.logout(request, context) })
        // People/SetupPages.swift → password_setup.html (PasswordSetupView)
        routes.get("/setup/{token}", .anyone, page: { app, request, context in try await app.peopleController.setupForm(request, context) })
        routes.post("/setup/{token}", .anyone, bodyLimit: .bytes(16 * 1024), page: { app, request, context in try await app.peopleController.setup(request, context) })
        routes.get("/invite/{token}", .anyone, page: { app, request, context in try await app.peopleController.invitationForm(request, context) })
        routes.post("/invite/{token}", .anyone, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.peopleController.acceptInvitation(request, context) })
        // People/PeoplePage.swift → people.html (PeoplePageView)
        routes.get("/people", .owner, page: { app, request, context in try await app.peopleController.peoplePage(request, context) })
        routes.post("/people", .owner, bodyLimit: .bytes(16 * 1024), page: { app, request, context in try await app.peopleController.invitePerson(request, context) })
        routes.post("/people/{name}/role", .owner, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.peopleController.changeRole(request, context) })
        routes.post("/people/{name}/disable", .owner, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.peopleController.disablePerson(request, context) })
        routes.post("/people/{name}/reset", .owner, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.peopleController.resetPerson(request, context) })
        // People/AccountPage.swift → account.html (AccountPageView)
        routes.get("/account", .viewer, page: { app, request, context in try await app.peopleController.accountPage(request, context) })
        routes.post("/account/password", .viewer, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.peopleController.changePassword(request, context) })
        routes.post("/account/vendor-password", .owner, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.peopleController.showVendorPassword(request, context) })
        routes.post("/account/sessions/others/revoke", .viewer, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.peopleController.revokeOtherSessions(request, context) })
        routes.post("/account/sessions/{handle}/revoke", .viewer, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.peopleController.revokeSession(request, context) })
        // Activity/ActivityPage.swift → activity.html (ActivityPageView)
        routes.get("/activity", .viewer, page: { app, request, context in try await app.activityController.activityPage(request, context) })
        // Trash/TrashPages.swift → trash.html (TrashPageView)
        routes.get("/trash", .viewer, page: { app, request, context in try await app.trashController.trashPage(request, context) })
        routes.post("/trash/{id}/restore", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.trashController.restoreFromTrash(request, context) })
        // Revert/RevertPages.swift → revert_result.html (RevertResultView)
        routes.post("/activity/bulk/{run}/revert", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.revertController.revertBulkRun(request, context) })
        routes.post("/activity/{id}/revert", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.revertController.revertRow(request, context) })
        // Drafts/DraftPages.swift → drafts.html (DraftsPageView); a draft opens in product_new.html (ProductNewPageView)
        routes.get("/drafts", .viewer, page: { app, request, context in try await app.draftController.draftsPage(request, context) })
        routes.get("/drafts/{id}", .viewer, page: { app, request, context in try await app.draftController.draftForm(request, context) })
        routes.post("/drafts/{id}/delete", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request, context in try await app.draftController.deleteDraft(request, context) })
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
        staticController.registerStaticFiles(into: &router)
        // A body over a route's limit, refused by the server before reading it: the 413 page.
        router.payloadTooLargeHandler = { [self] request in
            try await guarded(request, access: access(of: request)) { _, context in
                pages.errorPage(pages.failure(for: HTTPError(status: 413, message: "Body exceeds the limit")), context: context)
            }
        }
        return router
    }
}
