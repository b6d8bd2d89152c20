import HTTPServer

extension PanelApp {
    /// Issue 24's routes: the trash, reverts from the activity log, and drafts. Every POST needs
    /// an editor (`roleNeeded`), and the handlers check the role again.
    static func registerSafetyRoutes(into routes: inout RouteTable) {
        routes.get("/trash", .viewer, page: { app, request in try await app.trashPage(request) })
        routes.post("/trash/{id}/restore", .editor, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.restoreFromTrash(request) })
        routes.post("/activity/bulk/{run}/revert", .editor, bodyLimit: .bytes(16 * 1024),
                    page: { app, request in try await app.revertBulkRun(request) })
        routes.post("/activity/{id}/revert", .editor, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.revertRow(request) })
        routes.get("/drafts", .viewer, page: { app, request in try await app.draftsPage(request) })
        routes.get("/drafts/{id}", .viewer, page: { app, request in try await app.draftForm(request) })
        routes.post("/drafts/{id}/delete", .editor, bodyLimit: .bytes(16 * 1024), page: { app, request in try await app.deleteDraft(request) })
    }
}
