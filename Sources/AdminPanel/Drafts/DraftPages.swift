import Foundation
import HTTPServer
import OpenMarketCore

/// `/drafts`: the team's drafts, one opened in the register form, one discarded.
struct DraftController: Sendable, PageHandling {
    let pages: Pages
    let configuration: PanelConfiguration
    let staging: StagedUploads
    let drafts: DraftStore
    let safetyFiles: SafetyFiles
    let productFormController: ProductFormController

    /// `GET /drafts`: the team's drafts, newest first; editors can open or discard each.
    func draftsPage(_ request: HTTPRequest) async throws -> HTTPResponse {
        let visit = await visit(request)
        let l = visit.localizer
        let canWrite = visit.session?.role.canWrite ?? false
        let all = try await drafts.all()
        let rows = all.map { draft in
            DraftRowView(
                id: draft.id,
                name: draft.name.isEmpty ? l("safety_draft_untitled") : draft.name,
                saved: l("safety_draft_saved_by", ["person": draft.person, "time": l.dateTime(draft.savedAt, in: configuration.timeZone)]),
                write: canWrite ? DraftActionsView(openURL: "/drafts/\(draft.id)", deleteURL: "/drafts/\(draft.id)/delete",
                                                   csrfToken: visit.session?.csrfToken ?? "") : nil)
        }
        return try page(DraftsPageView(drafts: rows), title: l("safety_drafts_heading"), visit: visit, section: .drafts)
    }

    /// `GET /drafts/{id}` (editors): the register form filled with the draft, its images staged
    /// for this browser like images kept after an error.
    func draftForm(_ request: HTTPRequest) async throws -> HTTPResponse {
        let visit = await visit(request)
        guard let session = visit.session, session.role.canWrite else { throw PageFailure.forbidden("failure_viewer_read_only") }
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
            state.staged = try? await staging.stage(token: nil, owner: session.id, adding: files, removing: [])
        }
        return try productFormController.registerPage(state, visit: visit, status: 200)
    }

    /// `POST /drafts/{id}/delete` (editors, `csrf_token`): discards the draft and its images.
    func deleteDraft(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try Self.draftID(request)
        let form = try await request.urlencodedForm()
        let session = try await requireCSRF(request, formToken: form["csrf_token"])
        let l = visit(request, session: session).localizer
        guard session.role.canWrite else { throw PageFailure.forbidden("failure_viewer_read_only") }
        guard let folder = try await drafts.remove(id) else {
            return await redirect(to: "/drafts", flash: l("safety_flash_draft_gone"), session: session)
        }
        await safetyFiles.remove(area: DraftSaving.draftArea, folder: folder)
        return await redirect(to: "/drafts", flash: l("safety_flash_draft_discarded"), session: session)
    }

    private static func draftID(_ request: HTTPRequest) throws -> Int {
        guard let text = request.pathParameters["id"], let id = Int(text), id > 0 else {
            throw PageFailure.notFound("safety_draft_not_found")
        }
        return id
    }
}
