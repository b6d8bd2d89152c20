import Foundation
import HTTPServer
import OpenMarketCore

extension PanelApp {
    /// The chosen files checked by their bytes and pixels (only images within every limit are
    /// staged) and staged with the ones kept from an earlier try, so an error never loses them;
    /// then in the seller's order, with their bytes for the API. Register and v1 edit.
    func stageImages(_ form: MultipartForm, session: SessionSnapshot) async throws
        -> (staged: (token: String, images: [StagedImage])?, uploads: [ImageUpload], issues: [FieldIssue]) {
        var issues: [FieldIssue] = []
        var incoming: [(filename: String, data: Data, format: ImageFormat)] = []
        for file in form.files(named: "images") {
            var data = try await staging.read(file)
            var name = Self.safeFilename(file.filename)
            // Without JS nothing shrank the photo in the browser: a JPEG or PNG over the API's
            // limit is made to fit here (other formats are refused by name below).
            if data.count > ProductRules.maxImageBytes, let fitted = try? await shrinkForUpload(data, filename: name) {
                (data, name) = (fitted.data, fitted.filename)
            }
            let fileIssues = ProductRules.fileIssues(filename: name, data: data)
            guard fileIssues.isEmpty, let format = ImageFormat.detect(data) else {
                issues += fileIssues
                continue
            }
            incoming.append((name, data, format))
        }
        let token = form.fields["staged_token"].flatMap { $0.isEmpty ? nil : $0 }
        let removed = Set(form.fields.all("staged_remove").compactMap { Int($0) })
        var staged: (token: String, images: [StagedImage])?
        do {
            if token != nil || !incoming.isEmpty {
                staged = try await staging.stage(token: token, owner: session.id, adding: incoming, removing: removed)
            }
        } catch {
            issues.append(FieldIssue(field: "images",
                message: "The images you chose earlier were kept for an hour and have expired. Please choose them again.",
                code: "staged_expired"))
            if !incoming.isEmpty {
                staged = try? await staging.stage(token: nil, owner: session.id, adding: incoming, removing: [])
            }
        }
        // The kept images in the seller's order.
        if let current = staged {
            staged = (current.token, StagedOrder.apply(current.images, fields: form.fields))
        }
        var uploads: [ImageUpload] = []
        if let staged {
            for image in staged.images {
                guard let stored = await staging.data(token: staged.token, owner: session.id, id: image.id) else { continue }
                uploads.append(ImageUpload(filename: image.filename, data: stored.data))
            }
        }
        return (staged, uploads, issues)
    }
}
