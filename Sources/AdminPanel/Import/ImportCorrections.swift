import Foundation
import HTTPServer
import OpenMarketCore

/// Fixing a file's error rows: download them with their reasons, correct them in the
/// spreadsheet, and upload the corrected file onto the same preview, which keeps its photos.
extension ImportController {
    /// `GET /products/import/{import}/errors.csv`: the preview's error rows as the seller sent
    /// them (their header and cells) plus a last column with the reasons in the page's language.
    /// Only the person who made the preview may download it, as only they may see it.
    func importErrorRows(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let l = context.localizer
        let batch = try await ownedImport(request, context: context)
        let header = batch.plan.header ?? []
        let rows = batch.plan.errorRows.map { row in
            (cells: row.cells ?? [], reason: row.issues.map { Self.importShortIssue($0, l) }.joined(separator: " / "))
        }
        let data = ImportErrorRows.csv(header: header, rows: rows, reasonColumn: l("import_errors_column"),
                                       reasonColumnNames: ImportErrorRows.reasonColumnNames(pages.renderer.catalogs))
        var response = HTTPResponse(status: 200, body: .data(data))
        response.headers["Content-Type"] = "text/csv; charset=utf-8"
        response.headers["Content-Disposition"] = "attachment; filename=\"\(Self.errorFileName(batch.fileName))\""
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// `products-errors.csv` for `products.xlsx`: an ASCII name (a header value), the stem kept
    /// when it is plain letters and digits.
    static func errorFileName(_ fileName: String) -> String {
        let stem = (fileName as NSString).deletingPathExtension
        let safe = stem.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
        return (safe && !stem.isEmpty && stem.count <= 64 ? stem : "import") + "-errors.csv"
    }

    /// `POST /products/import/{import}/file` (multipart `file`, optional `images`…, `csrf_token`):
    /// a corrected file onto an open preview. It becomes a new preview with the first one's
    /// photos (a photo uploaded now replaces the kept one of the same name, whatever its letter
    /// case); the first preview, if nothing of it was applied, is removed so it cannot be
    /// applied beside its correction. 303 to the new preview.
    func importCorrected(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let form = try await importUploadForm(request)
        try pages.requireCSRF(context, formToken: form.fields["csrf_token"])
        let l = context.localizer
        let earlier = try await ownedImport(request, context: context)
        guard importLive(earlier) else {
            throw PageFailure(status: 410, heading: "import_expired_heading", message: "import_expired_message")
        }
        func refuse(_ message: String, _ status: Int) throws -> HTTPResponse {
            if earlier.rows.values.contains(where: { $0.state != .pending }) {
                throw PageFailure(status: status, heading: "import_corrected_refused_heading", message: "import_corrected_refused_message",
                                  arguments: ["reason": message], retryURL: "/products/import/\(earlier.id)")
            }
            return try importPreviewPage(earlier.plan, importID: earlier.id, fileName: earlier.fileName, context: context,
                                         status: status, open: true, alert: message)
        }
        let spreadsheet: ImportSpreadsheet
        switch try await readSpreadsheet(form, l) {
        case .read(let read): spreadsheet = read
        case .refused(let message, let status): return try refuse(message, status)
        }
        let photos = try await fitPhotos(form)
        let replaced = Set(photos.usable.keys.map { $0.lowercased() }).union(photos.issues.keys.map { $0.lowercased() })
        let inherited = earlier.plan.files.sorted { $0.key < $1.key }.compactMap { name, stored -> (name: String, file: URL)? in
            guard !replaced.contains(name.lowercased()), let file = imports.file(stored, of: earlier.id) else { return nil }
            return (name: name, file: file)
        }
        let keptBytes = photos.usable.values.reduce(0) { $0 + $1.count }
            + inherited.reduce(0) { $0 + ((try? $1.file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
        guard photos.usable.count + inherited.count <= ImportService.maxKeptPhotos,
              keptBytes <= ImportService.maxKeptPhotoBytes(uploadLimit: pages.configuration.uploadLimit) else {
            return try refuse(l("import_corrected_too_many_photos", ["count": l.number(ImportService.maxKeptPhotos),
                                                                      "size": l.number(ImportService.maxKeptPhotoBytes(uploadLimit: pages.configuration.uploadLimit) >> 20)]),
                              413)
        }
        // The earlier preview must not be applied while its photos move on: claim it.
        guard imports.begin(earlier.id) else {
            return pages.redirect(to: "/products/import/\(earlier.id)", flash: l("import_flash_running"))
        }
        defer { imports.end(earlier.id) }
        guard let current = try await imports.store.batch(earlier.id) else { throw PageFailure.notFound() }
        let (_, id) = try await storePreview(spreadsheet, photos: photos, inherited: inherited, person: context.person)
        if !current.rows.values.contains(where: { $0.state != .pending }) { await imports.discard(earlier.id) }
        let flash = inherited.isEmpty ? l("import_flash_corrected")
            : l.plural("import_flash_corrected_photos", count: inherited.count)
        return pages.redirect(to: "/products/import/\(id)", flash: flash)
    }
}
