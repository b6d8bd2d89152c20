import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

extension PanelApp {
    static let draftArea = "drafts"

    /// The register form's second button (`name="draft"`): keeps the typed fields and the staged
    /// images in `DATA/drafts` (synced), asks the API nothing, and leads to `/drafts`. A form
    /// opened from a draft (`draft_id`) replaces that draft. The v1 password is never kept.
    func saveDraft(_ form: MultipartForm, values: ProductFormValues, uploads: [ImageUpload],
                   staged: (token: String, images: [StagedImage])?, session: SessionSnapshot, l: Localizer) async throws -> HTTPResponse {
        let existing = form.fields["draft_id"].flatMap { Int($0) }
        if existing == nil, try await drafts.count() >= DraftStore.maxDrafts {
            throw PageFailure(status: 422, heading: "safety_draft_failed_heading", message: "safety_draft_too_many",
                              arguments: ["max": l.number(DraftStore.maxDrafts)])
        }
        var kept = values
        kept.thumbnailID = ""
        let images = Array(uploads.prefix(ProductRules.imageCount.upperBound))
        let saved = SavedProduct(values: kept, images: SavedProduct.imageEntries(images.map { ($0.filename, $0.data) }))
        let folder = "draft-" + SecureToken.make(byteCount: 8)
        do {
            try await safetyFiles.keep(saved, imageData: images.map(\.data), area: Self.draftArea, folder: folder)
        } catch let failure as DurableFolder.Failure {
            throw PageFailure(status: failure.isDiskFull ? 507 : 500, heading: "safety_draft_failed_heading",
                              message: failure.isDiskFull ? "safety_keep_failed_disk_full" : "safety_keep_failed_storage")
        }
        let name = String(kept.name.trimmingCharacters(in: .whitespacesAndNewlines).prefix(200))
        let (_, oldFolder) = try await drafts.save(id: existing, person: session.person, savedAt: configuration.now(),
                                                   name: name, folder: folder)
        if let oldFolder { await safetyFiles.remove(area: Self.draftArea, folder: oldFolder) }
        if let staged { await staging.discard(token: staged.token) }
        let shown = name.isEmpty ? l("safety_draft_untitled") : name
        return await redirect(to: "/drafts", flash: l("safety_flash_draft_saved", ["name": shown]), session: session)
    }

    /// After a product was registered from a draft: the draft is done.
    func finishDraft(_ form: MultipartForm) async {
        guard let id = form.fields["draft_id"].flatMap({ Int($0) }),
              let folder = try? await drafts.remove(id) else { return }
        await safetyFiles.remove(area: Self.draftArea, folder: folder)
    }

    /// `GET /drafts`: the team's drafts, newest first; editors can open or discard each.
    func draftsPage(_ request: HTTPRequest) async throws -> HTTPResponse {
        let visit = await visit(request)
        let l = visit.localizer
        let canWrite = visit.session?.role.canWrite ?? false
        let all = try await drafts.all()
        let context: [String: TemplateValue] = [
            "empty": .bool(all.isEmpty),
            "can_write": .bool(canWrite),
            "drafts": .list(all.map { draft in
                .object([
                    "id": .int(draft.id),
                    "name": .string(draft.name.isEmpty ? l("safety_draft_untitled") : draft.name),
                    "saved": .string(l("safety_draft_saved_by", ["person": draft.person,
                                                                 "time": l.dateTime(draft.savedAt, in: configuration.timeZone)])),
                    "write": canWrite ? .object([
                        "open_url": .string("/drafts/\(draft.id)"),
                        "delete_url": .string("/drafts/\(draft.id)/delete"),
                        "csrf_token": .string(visit.session?.csrfToken ?? ""),
                    ]) : .null,
                ])
            }),
        ]
        return try page("drafts", title: l("safety_drafts_heading"), context: context, visit: visit, section: .drafts)
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
            kept = try await safetyFiles.read(area: Self.draftArea, folder: draft.folder)
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
        return try registerPage(state, visit: visit, status: 200)
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
        await safetyFiles.remove(area: Self.draftArea, folder: folder)
        return await redirect(to: "/drafts", flash: l("safety_flash_draft_discarded"), session: session)
    }

    private static func draftID(_ request: HTTPRequest) throws -> Int {
        guard let text = request.pathParameters["id"], let id = Int(text), id > 0 else {
            throw PageFailure.notFound("safety_draft_not_found")
        }
        return id
    }
}
