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
        routes.get("/", .viewer, plain: { _, _ in .redirect(to: "/products", status: 303) })
        // Catalog/ListPage.swift → products.html (ProductListView)
        routes.get("/products", .viewer, page: { app, request in try await app.catalogController.listPage(request) })
        // Products/RegisterPage.swift (v1: Products/V1/V1Forms.swift) → product_new.html (ProductNewPageView)
        routes.post("/products", .editor, bodyLimit: .upload, page: { app, request in try await app.productFormController.registerProduct(request) })
        // Catalog/CatalogPages.swift (refresh, CSV, Excel, newest)
        routes.get("/products/refresh", .viewer, page: { app, request in try await app.catalogController.refreshCatalog(request) })
        routes.get("/products/export.csv", .viewer, page: { app, request in try await app.catalogController.exportCatalog(request) })
        routes.get("/products/export.xlsx", .viewer, page: { app, request in try await app.catalogController.exportWorkbook(request) })
        // Catalog/EditExportPages.swift (the export for editing: CSV, Excel)
        routes.get("/products/export-edit.csv", .editor, page: { app, request in try await app.catalogController.exportForEditing(request) })
        routes.get("/products/export-edit.xlsx", .editor, page: { app, request in try await app.catalogController.exportWorkbookForEditing(request) })
        routes.get("/products/newest.json", .viewer, plain: { app, request in try await app.catalogController.newestProduct(request) })
        // Catalog/BulkPage.swift, Sales/SaleBulk.swift → bulk_result.html (BulkResultView)
        routes.post("/products/bulk", .editor, bodyLimit: .bytes(64 * 1024),
                    page: { app, request in try await app.bulkController.bulkAction(request) })
        // Sheet/SheetPage.swift, SheetSave.swift → sheet.html (SheetPageView)
        routes.get("/products/sheet", .viewer, page: { app, request in try await app.sheetController.sheetPage(request) })
        routes.post("/products/sheet", .editor, bodyLimit: .bytes(1024 * 1024),
                    page: { app, request in try await app.sheetController.saveSheet(request) })
        // Import/ImportPages.swift, ImportApply.swift, ImportRendering.swift → import.html (ImportFormView), import_preview.html (ImportPreviewView), import_result.html (ImportResultView)
        routes.get("/products/import", .editor, page: { app, request in try await app.importController.importForm(request) })
        // The CSV's 5 MiB plus the photos within the register form's upload limit; a body over it
        // is refused (413) before it is read.
        routes.post("/products/import", .editor, bodyLimit: .importUpload,
                    page: { app, request in try await app.importController.importPreview(request) })
        routes.get("/products/import/{import}", .editor, page: { app, request in try await app.importController.importPage(request) })
        routes.get("/products/import/{import}/status.json", .editor,
                   plain: { app, request in await app.importController.importStatus(request) })
        routes.post("/products/import/{import}/apply", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.importController.importApply(request) })
        // Import/ImportCorrections.swift (the error rows as CSV; a corrected file → a new preview, 303)
        routes.get("/products/import/{import}/errors.csv", .editor,
                   page: { app, request in try await app.importController.importErrorRows(request) })
        routes.post("/products/import/{import}/file", .editor, bodyLimit: .importUpload,
                    page: { app, request in try await app.importController.importCorrected(request) })
        // Products/DuplicatePage.swift → product_new.html (ProductNewPageView)
        routes.get("/products/{id}/duplicate", .editor, page: { app, request in try await app.productFormController.duplicateForm(request) })
        // Products/RegisterPage.swift → product_new.html (ProductNewPageView)
        routes.get("/products/new", .editor, page: { app, request in try await app.productFormController.registerForm(request) })
        // Products/DetailPage.swift → product.html (ProductDetailView)
        routes.get("/products/{id}", .viewer, page: { app, request in try await app.productController.detailPage(request) })
        // Products/EditPage.swift (v1: Products/V1/V1Forms.swift) → product_edit.html (ProductEditPageView)
        routes.get("/products/{id}/edit", .editor, page: { app, request in try await app.productFormController.editForm(request) })
        routes.post("/products/{id}/edit", .editor, bodyLimit: .productEdit,
                    page: { app, request in try await app.productFormController.updateProduct(request) })
        // Products/DeletePage.swift → product_delete.html (ProductDeletePageView)
        routes.get("/products/{id}/delete", .editor, page: { app, request in try await app.productController.deletePrompt(request) })
        routes.post("/products/{id}/delete", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.productController.deleteProduct(request) })
        // Uploads/StagedUploadPreview.swift
        routes.get("/uploads/{token}/{image}", .viewer, page: { app, request in try await app.mediaController.stagedPreview(request) })
        // Media/MediaProxy.swift
        routes.get("/media/{path...}", .viewer, plain: { app, request in try await app.mediaController.mediaFile(request) })
        // Live/LiveEvents.swift (text/event-stream)
        routes.get("/events", .viewer, plain: { app, request in await app.liveController.events(request) })
        // App/Health.swift
        routes.get("/healthz", .anyone, plain: { app, request in try await app.healthController.health(request) })
        // Sales/SalesPages.swift → sales.html (SalesPageView)
        routes.get("/sales", .viewer, page: { app, request in try await app.salesController.salesPage(request) })
        routes.post("/products/{id}/sales", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.salesController.scheduleSale(request) })
        routes.post("/sales/{id}/cancel", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.salesController.cancelSale(request) })
        // Sales/SaleRunCancel.swift (redirects)
        routes.post("/sales/runs/{run}/cancel", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.salesController.cancelRun(request) })
        // Guards/StaticFastPath.swift: Public/ through the server's static route
        routes.get(staticPattern, .anyone, plain: { app, request in app.staticController.asset(request) })
        // Sessions/SignIn.swift → login.html (LoginPageView)
        routes.get("/login", .anyone, page: { app, request in try await app.sessionController.loginForm(request) })
        routes.post("/login", .anyone, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.sessionController.login(request) })
        routes.post("/logout", .viewer, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.sessionController.logout(request) })
        // People/SetupPages.swift → password_setup.html (PasswordSetupView)
        routes.get("/setup/{token}", .anyone, page: { app, request in try await app.peopleController.setupForm(request) })
        routes.post("/setup/{token}", .anyone, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.peopleController.setup(request) })
        routes.get("/invite/{token}", .anyone, page: { app, request in try await app.peopleController.invitationForm(request) })
        routes.post("/invite/{token}", .anyone, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.peopleController.acceptInvitation(request) })
        // People/PeoplePage.swift → people.html (PeoplePageView)
        routes.get("/people", .owner, page: { app, request in try await app.peopleController.peoplePage(request) })
        routes.post("/people", .owner, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.peopleController.invitePerson(request) })
        routes.post("/people/{name}/role", .owner, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.peopleController.changeRole(request) })
        routes.post("/people/{name}/disable", .owner, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.peopleController.disablePerson(request) })
        routes.post("/people/{name}/reset", .owner, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.peopleController.resetPerson(request) })
        // People/AccountPage.swift → account.html (AccountPageView)
        routes.get("/account", .viewer, page: { app, request in try await app.peopleController.accountPage(request) })
        routes.post("/account/password", .viewer, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.peopleController.changePassword(request) })
        routes.post("/account/vendor-password", .owner, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.peopleController.showVendorPassword(request) })
        routes.post("/account/sessions/others/revoke", .viewer, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.peopleController.revokeOtherSessions(request) })
        routes.post("/account/sessions/{handle}/revoke", .viewer, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.peopleController.revokeSession(request) })
        // Activity/ActivityPage.swift → activity.html (ActivityPageView)
        routes.get("/activity", .viewer, page: { app, request in try await app.activityController.activityPage(request) })
        // Trash/TrashPages.swift → trash.html (TrashPageView)
        routes.get("/trash", .viewer, page: { app, request in try await app.trashController.trashPage(request) })
        routes.post("/trash/{id}/restore", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.trashController.restoreFromTrash(request) })
        // Revert/RevertPages.swift → revert_result.html (RevertResultView)
        routes.post("/activity/bulk/{run}/revert", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.revertController.revertBulkRun(request) })
        routes.post("/activity/{id}/revert", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.revertController.revertRow(request) })
        // Drafts/DraftPages.swift → drafts.html (DraftsPageView); a draft opens in product_new.html (ProductNewPageView)
        routes.get("/drafts", .viewer, page: { app, request in try await app.draftController.draftsPage(request) })
        routes.get("/drafts/{id}", .viewer, page: { app, request in try await app.draftController.draftForm(request) })
        routes.post("/drafts/{id}/delete", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.draftController.deleteDraft(request) })
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
                let page = route.handler
                handler = pages.pageHandler { [self] request in try await page(self, request) }
            } else {
                let plain = route.handler
                handler = { [self] request in try await plain(self, request) }
            }
            router.add(route.method, route.pattern, bodyLimit: route.bodyLimit.bytes(configuration), handler)
        }
        // The assets' route is the server's static route: the same handler, plus the fast path that
        // answers plain requests on the connection's loop (StaticFastPath). The table keeps its entry
        // for the access it declares.
        staticController.registerStaticFiles(into: &router)
        router.notFoundHandler = { [self] request in
            await pages.errorPage(.notFound(), request: request)
        }
        // A body over a route's limit, refused by the server before reading it: the 413 page.
        router.payloadTooLargeHandler = { [self] request in
            await pages.errorPage(pages.failure(for: HTTPError(status: 413, message: "Body exceeds the limit")), request: request)
        }
        return router
    }
}
