import Foundation
import HTTPServer
import OpenMarketCore

/// `/drafts`: the team's drafts, one opened in the register form, one discarded.
struct DraftController: Sendable {
    let pages: Pages
    let staging: StagedUploads
    let drafts: DraftStore
    let safetyFiles: SafetyFiles
    /// The register form, filled with a draft (`ProductFormController.registerPage`).
    let registerPage: @Sendable (ProductFormState, PanelContext, Int) throws -> HTTPResponse

    /// `GET /drafts`: the team's drafts, newest first; editors can open or discard each.
    func draftsPage(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let context = context.withFormKey()
        let l = context.localizer
        let canWrite = context.role.canWrite
        let all = try await drafts.all()
        let rows = all.map { draft in
            DraftRowView(
                id: draft.id,
                name: draft.name.isEmpty ? l("safety_draft_untitled") : draft.name,
                saved: l("safety_draft_saved_by", ["person": draft.person, "time": l.dateTime(draft.savedAt, in: pages.configuration.timeZone)]),
                write: canWrite ? DraftActionsView(openURL: "/drafts/\(draft.id)", deleteURL: "/drafts/\(draft.id)/delete",
                                                   csrfToken: context.csrfToken) : nil)
        }
        return try pages.page(DraftsPageView(drafts: rows), title: l("safety_drafts_heading"), context: context, section: .drafts)
    }

    /// `GET /drafts/{id}` (editors): the register form filled with the draft, its images staged
    /// for this browser like images kept after an error.
    func draftForm(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let context = context.withFormKey()
        guard context.role.canWrite else { throw PageFailure.forbidden("failure_viewer_read_only") }
        let id = try Self.draftID(request)
        guard let draft = try await drafts.draft(id) else { throw PageFailure.notFound("safety_draft_not_found") }
        let kept: (product: SavedProduct, images: [ImageUpload])
        do {
            kept = try await safetyFiles.read(area: DraftSaving.draftArea, folder: draft.folder)
        } catch SafetyFiles.Failure.missing(let file) {
            throw PageFailure(status: 409, heading: "safety_draft_failed_heading", message: "safety_draft_files_missing",
                              arguments: ["file": file])
        }
        var state = ProductFormState(values: kept.product.values)
        state.draftID = id
        if !kept.images.isEmpty {
            let files = kept.images.compactMap { image in ImageFormat.detect(image.data).map { (filename: image.filename, data: image.data, format: $0) } }
            state.staged = try? await staging.stage(token: nil, owner: context.formKey, adding: files, removing: [])
        }
        return try registerPage(state, context, 200)
    }

    /// `POST /drafts/{id}/delete` (editors, `csrf_token`): discards the draft and its images.
    func deleteDraft(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let id = try Self.draftID(request)
        let form = try await request.urlencodedForm()
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let l = context.localizer
        guard let folder = try await drafts.remove(id) else {
            return pages.redirect(to: "/drafts", flash: l("safety_flash_draft_gone"))
        }
        await safetyFiles.remove(area: DraftSaving.draftArea, folder: folder)
        return pages.redirect(to: "/drafts", flash: l("safety_flash_draft_discarded"))
    }

    private static func draftID(_ request: HTTPRequest) throws -> Int {
        guard let text = request.pathParameters["id"], let id = Int(text), id > 0 else {
            throw PageFailure.notFound("safety_draft_not_found")
        }
        return id
    }

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout Router<PanelContext>) {
        routes.get("/drafts", .viewer, page: \.controllers.draftController) { try await $0.draftsPage($1, $2) }
        routes.get("/drafts/{id}", .viewer, page: \.controllers.draftController) { try await $0.draftForm($1, $2) }
        routes.post("/drafts/{id}/delete", .editor, bodyLimit: .bytes(16 * 1024),
                    page: \.controllers.draftController) { try await $0.deleteDraft($1, $2) }
    }
}
