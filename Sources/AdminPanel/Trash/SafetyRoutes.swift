import HTTPServer

extension PanelApp {
    /// Issue 24's routes: the trash, reverts from the activity log, and drafts. Every POST needs
    /// an editor (`roleNeeded`), and the handlers check the role again.
    func registerSafetyRoutes(into router: inout Router) {
        router.get("/trash", pageHandler { app, request in try await app.trashPage(request) })
        router.post("/trash/{id}/restore", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.restoreFromTrash(request) })
        router.post("/activity/bulk/{run}/revert", bodyLimit: 16 * 1024,
                    pageHandler { app, request in try await app.revertBulkRun(request) })
        router.post("/activity/{id}/revert", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.revertRow(request) })
        router.get("/drafts", pageHandler { app, request in try await app.draftsPage(request) })
        router.get("/drafts/{id}", pageHandler { app, request in try await app.draftForm(request) })
        router.post("/drafts/{id}/delete", bodyLimit: 16 * 1024, pageHandler { app, request in try await app.deleteDraft(request) })
    }
}
