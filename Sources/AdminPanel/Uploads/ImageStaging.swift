import Foundation
import HTTPServer
import OpenMarketCore

/// Images chosen in a form: checked, shrunk to the API's limit and staged so an error never loses them
/// (register, v1 edit, duplicate, import).
struct ImageStager: Sendable {
    let staging: StagedUploads
    let imports: ImportService

    /// The last path component of an uploaded file's name, without control characters.
    static func safeFilename(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let clean = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        let trimmed = clean.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? "image" : String(trimmed.prefix(100))
    }

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

    /// A photo made to fit the API's limit on the import's own thread (shrinking is CPU work: one
    /// at a time, off the pool that serves requests), for the import, register without JS and
    /// duplicate; the failure names the file.
    func shrinkForUpload(_ data: Data, filename: String) async throws -> ImageShrinker.Result {
        let outcome: Result<ImageShrinker.Result, ImageShrinker.Failure> = await imports.shrinking.run {
            do throws(ImageShrinker.Failure) { return .success(try ImageShrinker.fit(data, filename: filename)) } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let fitted):
            let issues = ProductRules.fileIssues(filename: fitted.filename, data: fitted.data)
            if let first = issues.first {
                throw ImportImageFailure(key: "issue_" + (first.code ?? "image_type"), arguments: first.arguments, message: first.message)
            }
            return fitted
        case .failure(.unsupported):
            throw ImportImageFailure(key: "import_reason_photo_unsupported",
                                     arguments: ["file": filename, "max": String(ProductRules.maxImageBytes / 1024)],
                                     message: "‘\(filename)’ is over \(ProductRules.maxImageBytes / 1024) KB and only JPEG and PNG photos can be made smaller.")
        case .failure:
            throw ImportImageFailure(key: "import_reason_photo_unreadable", arguments: ["file": filename],
                                     message: "‘\(filename)’ could not be read as an image.")
        }
    }
}

/// A photo that cannot be sent: a catalog key and its values, and the English text.
struct ImportImageFailure: Error {
    var key: String
    var arguments: [String: String]
    var message: String
    var reason: String { ImportReason.encode(key, arguments) }
}
