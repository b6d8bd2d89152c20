import Foundation
import HTTPServer
import NetworkIO
import OpenMarketCore

/// Images chosen in a form: checked, shrunk to the API's limit and staged so an error never loses them
/// (register, v1 edit, duplicate, import).
struct ImageStager: Sendable {
    let staging: StagedUploads
    /// Where a form's large parts wait on disk while it is read (this process's uploads folder).
    let spoolDirectory: URL
    /// The photo workers: decoding is CPU work, kept off the event loops and the concurrency pool,
    /// on two threads so one large photo never stalls everyone's (see `shrinkForUpload`).
    let photoWorkers: WorkerPool

    /// Two threads on a two-core machine leave the loops their share (the workers run at a lower
    /// priority); sixteen photos may wait, each at most `photoPatience`.
    static func makePhotoWorkers() -> WorkerPool { WorkerPool(workers: 2, maxWaiting: 16) }
    static let photoPatience: Duration = .seconds(30)

    /// A form with images, read within `limits`; parts over the spool threshold go to disk.
    func form(of request: HTTPRequest, limits: MultipartLimits) async throws -> MultipartForm {
        try await request.multipartForm(limits: limits, spoolDirectory: spoolDirectory)
    }

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
    func stageImages(_ form: MultipartForm, context: PanelContext) async throws
        -> (staged: (token: String, images: [StagedImage])?, uploads: [ImageUpload], issues: [FieldIssue]) {
        var issues: [FieldIssue] = []
        var incoming: [(filename: String, data: Data, format: ImageFormat)] = []
        for file in form.files(named: "images") {
            var data = try await staging.read(file)
            var name = Self.safeFilename(file.filename)
            // A JPEG or PNG is checked to decode completely, and (without JS nothing shrank it in
            // the browser) one over the API's limit is made to fit here. Other formats, and files
            // over the pixel rules, are refused by the checks below, which name them.
            do {
                let fitted = try await shrinkForUpload(data, filename: name)
                (data, name) = (fitted.data, fitted.filename)
            } catch let failure as ImportImageFailure where !failure.leftToFileChecks {
                issues.append(failure.fieldIssue)
                continue
            } catch is ImportImageFailure {}
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
                staged = try await staging.stage(token: token, owner: context.formKey, adding: incoming, removing: removed)
            }
        } catch {
            issues.append(FieldIssue(field: "images",
                message: "The images you chose earlier were kept for an hour and have expired. Please choose them again.",
                code: "staged_expired"))
            if !incoming.isEmpty {
                staged = try? await staging.stage(token: nil, owner: context.formKey, adding: incoming, removing: [])
            }
        }
        // The kept images in the seller's order.
        if let current = staged {
            staged = (current.token, StagedOrder.apply(current.images, fields: form.fields))
        }
        var uploads: [ImageUpload] = []
        if let staged {
            for image in staged.images {
                guard let stored = await staging.data(token: staged.token, owner: context.formKey, id: image.id) else { continue }
                uploads.append(ImageUpload(filename: image.filename, data: stored.data))
            }
        }
        return (staged, uploads, issues)
    }

    /// A photo checked and made to fit the API's limit on the photo workers, for the import,
    /// register without JS and duplicate: a JPEG or PNG only once it decodes completely. The
    /// failure names the file; a request that waited `photoPatience` for a worker gives up.
    func shrinkForUpload(_ data: Data, filename: String) async throws -> ImageShrinker.Result {
        let outcome: Result<ImageShrinker.Result, ImageShrinker.Failure>
        do {
            outcome = try await photoWorkers.run(waitingAtMost: Self.photoPatience) {
                do throws(ImageShrinker.Failure) { return .success(try ImageShrinker.fit(data, filename: filename)) } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw ImportImageFailure(key: "issue_photo_busy", arguments: ["file": filename],
                                     message: "The panel is busy making other photos smaller, so ‘\(filename)’ was not sent. Try again in a minute.")
        }
        switch outcome {
        case .success(let fitted):
            let issues = ProductRules.fileIssues(filename: fitted.filename, data: fitted.data)
            if let first = issues.first {
                throw ImportImageFailure(key: "issue_" + (first.code ?? "image_type"), arguments: first.arguments, message: first.message)
            }
            return fitted
        case .failure(.outsidePixelRules(let size)):
            let issue = ProductRules.pixelIssue(file: filename, size)
            throw ImportImageFailure(key: "issue_" + (issue?.code ?? "image_too_many_pixels"), arguments: issue?.arguments ?? [:],
                                     message: issue?.message ?? "‘\(filename)’ has too many pixels.")
        case .failure(.unsupported):
            throw ImportImageFailure(key: "issue_photo_unsupported",
                                     arguments: ["file": filename, "max": String(ProductRules.maxImageBytes / 1024)],
                                     message: "‘\(filename)’ is over \(ProductRules.maxImageBytes / 1024) KB and only JPEG and PNG photos can be made smaller.")
        case .failure(.incomplete):
            throw ImportImageFailure(key: "issue_photo_incomplete", arguments: ["file": filename],
                                     message: "‘\(filename)’ is cut off or damaged: part of the picture is missing. Save or download it again.")
        case .failure(.overMemory):
            throw ImportImageFailure(key: "issue_photo_too_complex", arguments: ["file": filename],
                                     message: "‘\(filename)’ is a progressive JPEG too large for the panel to read. Save it as a standard JPEG, or with fewer pixels.")
        case .failure(.unreadable), .failure(.cannotFit):
            throw ImportImageFailure(key: "issue_photo_unreadable", arguments: ["file": filename],
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

    /// The same failure as a form's error on its images field (every key here is `issue_<code>`).
    var fieldIssue: FieldIssue {
        FieldIssue(field: "images", message: message, code: key.hasPrefix("issue_") ? String(key.dropFirst(6)) : key,
                   arguments: arguments)
    }

    /// Failures a form leaves to `ProductRules.fileIssues`, which says them in its own words: a
    /// format the panel cannot shrink, the pixel rules, the size limit.
    var leftToFileChecks: Bool { key.hasPrefix("issue_image_") || key == "issue_photo_unsupported" }
}
