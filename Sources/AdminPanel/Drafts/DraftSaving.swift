import Foundation
import HTMLTemplates
import HTTPServer
import OpenMarketCore

/// The register form's "save as draft" button, and a draft finished by registering it.
struct DraftSaving: Sendable {
    let configuration: PanelConfiguration
    let staging: StagedUploads
    let drafts: DraftStore
    let safetyFiles: SafetyFiles

    static let draftArea = "drafts"

    /// The register form's second button (`name="draft"`): keeps the typed fields and the staged
    /// images in `DATA/drafts` (synced), asks the API nothing, and leads to `/drafts`. A form
    /// opened from a draft (`draft_id`) replaces that draft, and only a draft the panel issued:
    /// any other id is a 404 (it would otherwise add a draft past the limit). The v1 password is
    /// never kept. Answers the draft's name as the flash shows it; a refusal is a `PageFailure`.
    func saveDraft(_ form: MultipartForm, values: ProductFormValues, uploads: [ImageUpload],
                   staged: (token: String, images: [StagedImage])?, context: PanelContext, l: Localizer) async throws -> String {
        let given = form.fields["draft_id"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let existing = given.isEmpty ? nil : Int(given)
        if !given.isEmpty {
            guard let existing, try await drafts.draft(existing) != nil else { throw PageFailure.notFound("safety_draft_not_found") }
        }
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
        let oldFolder: String?
        do {
            (_, oldFolder) = try await drafts.save(id: existing, person: context.person, savedAt: configuration.now(),
                                                   name: name, folder: folder)
        } catch DraftStore.Failure.unknownDraft {
            // Registered or discarded by a colleague since the check above.
            await safetyFiles.remove(area: Self.draftArea, folder: folder)
            throw PageFailure.notFound("safety_draft_not_found")
        }
        if let oldFolder { await safetyFiles.remove(area: Self.draftArea, folder: oldFolder) }
        if let staged { await staging.discard(token: staged.token) }
        return name.isEmpty ? l("safety_draft_untitled") : name
    }

    /// After a product was registered from a draft: the draft is done.
    func finishDraft(_ form: MultipartForm) async {
        guard let id = form.fields["draft_id"].flatMap({ Int($0) }),
              let folder = try? await drafts.remove(id) else { return }
        await safetyFiles.remove(area: Self.draftArea, folder: folder)
    }
}
