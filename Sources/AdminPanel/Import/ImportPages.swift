import Foundation
import HTTPServer
import OpenMarketCore
import Workbook

extension ImportController {
    /// `GET /products/import`
    func importForm(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let context = context.withFormKey()
        return try importFormPage(context: context, alert: nil, status: 200)
    }

    func importFormPage(context: PanelContext, alert: String?, status: Int) throws -> HTTPResponse {
        let l = context.localizer
        let view = ImportFormView(csrfToken: context.csrfToken, alert: alert.map(MessageView.init),
                                  limits: l("import_limits", ["size": "5", "rows": l.number(ImportService.maxRows)]),
                                  templateURL: "/static/import-template-\(l.language == .ko ? "ko" : "en").csv")
        return try pages.page(view, title: l("import_title"), context: context, section: .products, status: status)
    }

    /// `POST /products/import` (multipart `file`: a CSV or an .xlsx workbook; `images`…,
    /// `csrf_token`): the preview. Nothing is sent to the API; products named by id are read
    /// (from the catalog copy, or the API for ids the copy does not know and for descriptions,
    /// which the copy does not keep).
    func importPreview(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let form = try await importUploadForm(request)
        try pages.requireCSRF(context, formToken: form.fields["csrf_token"])
        let l = context.localizer

        let spreadsheet: ImportSpreadsheet
        switch try await readSpreadsheet(form, l) {
        case .read(let read): spreadsheet = read
        case .refused(let message, let status): return try importFormPage(context: context, alert: message, status: status)
        }
        let photos = try await fitPhotos(form)
        let (plan, id) = try await storePreview(spreadsheet, photos: photos, inherited: [], person: context.person)
        return try importPreviewPage(plan, importID: id, fileName: spreadsheet.fileName, context: context,
                                     status: plan.hasErrors ? 422 : 200)
    }

    /// The multipart form of a spreadsheet and its photos (the import's and a corrected file's).
    func importUploadForm(_ request: HTTPRequest) async throws -> MultipartForm {
        try await request.multipartForm(limits: MultipartLimits(
            maxParts: 260, maxHeaderBytesPerPart: 8 * 1024, maxFieldBytes: 8 * 1024,
            maxFileBytes: max(ImportService.maxFileBytes, pages.configuration.uploadLimit), spoolThreshold: 512 * 1024),
            spoolDirectory: uploads.spoolDirectory)
    }

    /// A spreadsheet's header and records, read within every limit.
    struct ImportSpreadsheet: Sendable {
        var fileName: String
        var header: CSVReader.Record
        var rows: [CSVReader.Record]
    }

    enum SpreadsheetReading: Sendable {
        case read(ImportSpreadsheet)
        /// Why the file cannot be previewed, in the reader's language, and the status to answer.
        case refused(String, status: Int)
    }

    func readSpreadsheet(_ form: MultipartForm, _ l: Localizer) async throws -> SpreadsheetReading {
        // v1 products each have their own password, asked on every change: no batch can hold them.
        guard upstream.writer.dialect.hasVendor else { return .refused(l("import_error_v1"), status: 422) }
        guard let file = form.files(named: "file").first, file.size > 0 else {
            return .refused(l("import_error_no_file"), status: 422)
        }
        guard file.size <= ImportService.maxFileBytes else {
            return .refused(l("import_error_too_large", ["size": "5"]), status: 413)
        }
        let fileName = ImageStager.safeFilename(file.filename)
        let data = try await uploads.staging.read(file)
        let records: [CSVReader.Record]
        do {
            // CPU work (up to 5 MiB): on the import's own thread, never on a loop serving requests.
            let reasonColumnNames = ImportErrorRows.reasonColumnNames(pages.renderer.catalogs)
            records = try await imports.shrinking.run {
                try SpreadsheetFile.records(from: data, reasonColumnNames: reasonColumnNames)
            }
        } catch let failure as WorkbookFailure {
            return .refused(SpreadsheetFile.message(failure, file: fileName, l), status: 422)
        } catch let failure as CSVTextDecoder.Failure {
            let key = switch failure {
            case .binary: "import_error_binary"
            case .unknownEncoding: "import_error_encoding"
            case .empty: "import_error_empty"
            }
            return .refused(l(key, ["file": fileName]), status: 422)
        } catch let failure as CSVReader.Failure {
            let message = switch failure {
            case .tooManyColumns(let line, let max): l("import_error_columns", ["line": l.number(line), "max": l.number(max)])
            case .tooManyRecords(let max): l("import_error_rows", ["max": l.number(max)])
            case .unterminatedQuote(let line): l("import_error_quote", ["line": l.number(line)])
            }
            return .refused(message, status: 422)
        }
        guard let header = records.first, records.count > 1 else { return .refused(l("import_error_no_rows"), status: 422) }
        return .read(ImportSpreadsheet(fileName: fileName, header: header, rows: Array(records.dropFirst())))
    }

    /// The photos of an upload: each checked by its bytes and pixels, and shrunk when over the
    /// API's limit. `usable` holds the bytes to keep; `issues` why the others cannot be used.
    struct FittedPhotos: Sendable {
        var usable: [String: Data] = [:]
        var issues: [String: ImportIssue] = [:]
    }

    func fitPhotos(_ form: MultipartForm) async throws -> FittedPhotos {
        var photos = FittedPhotos()
        for image in form.files(named: "images") where image.size > 0 {
            let name = ImageStager.safeFilename(image.filename)
            let bytes = try await uploads.staging.read(image)
            do {
                let fitted = try await imageStager.shrinkForUpload(bytes, filename: name)
                photos.usable[name] = fitted.data
                photos.issues[name] = nil
            } catch let failure as ImportImageFailure {
                photos.usable[name] = nil
                photos.issues[name] = ImportIssue(line: 0, column: "images", key: failure.key, arguments: failure.arguments,
                                                  message: failure.message)
            }
        }
        return photos
    }

    /// Plans the spreadsheet against the products it names and stores the preview with every
    /// usable photo (those uploaded now and those `inherited` from the preview a corrected file
    /// replaces), so a later correction can use them without choosing them again.
    func storePreview(_ spreadsheet: ImportSpreadsheet, photos: FittedPhotos, inherited: [(name: String, file: URL)],
                      person: String) async throws -> (ImportPlan, String) {
        var uploads: [String: ImportIssue?] = photos.issues.mapValues { .some($0) }
        for name in photos.usable.keys { uploads[name] = .some(nil) }
        for photo in inherited { uploads[photo.name] = .some(nil) }
        let existing = await importProducts(for: spreadsheet.rows, header: spreadsheet.header)
        let planner = ImportPlanner(ownVendorID: upstream.writer.dialect.hasVendor ? await upstream.vendor.id : nil,
                                    products: existing, uploads: uploads)
        let header = spreadsheet.header, rows = spreadsheet.rows
        var plan = await imports.shrinking.run { planner.plan(header: header.cells, records: rows) }
        let id = SecureToken.make()
        let kept = photos.usable.sorted { $0.key < $1.key }.map { (name: $0.key, data: $0.value) }
        let imports = imports
        plan.files = try await imports.shrinking.run { try imports.keep(kept, inherited: inherited, for: id) }
        try await imports.store.create(id: id, person: person, fileName: spreadsheet.fileName, plan: plan, at: pages.configuration.now())
        await imports.trim(person: person)
        return (plan, id)
    }

    /// Ids the fresh catalog copy does not know are asked of the API, up to this many per file
    /// (a file of a thousand made-up ids must not become a thousand API calls).
    static let maxUnknownIDReads = 100

    /// The products the rows name, by id: the catalog copy's fields, the API's for ids the copy
    /// lacks, and the description (read from the API) where a row gives one to compare.
    private func importProducts(for rows: [CSVReader.Record], header: CSVReader.Record) async -> [Int: ImportPlanner.Existing] {
        guard let columns = try? ImportColumns(header: header.cells), columns.has(.id) else { return [:] }
        await upstream.catalogService.ensureFresh()
        let snapshot = upstream.catalogService.copy.snapshot()
        var found: [Int: ImportPlanner.Existing] = [:]
        var toRead: [Int] = []
        var unknownReads = 0
        var seen: Set<Int> = []
        for row in rows {
            guard let id = columns.value(.id, in: row.cells).flatMap({ Int($0) }), id > 0, seen.insert(id).inserted else { continue }
            if let product = snapshot.product(id: id) {
                found[id] = ImportPlanner.Existing(id: id, vendorID: product.vendorID, name: product.name, description: nil,
                                                   currency: product.currency, price: product.price,
                                                   discountedPrice: product.discountedPrice, stock: product.stock)
            }
            let wantsDescription = !(columns.value(.description, in: row.cells) ?? "").isEmpty
            if wantsDescription || found[id] == nil && unknownReads < Self.maxUnknownIDReads {
                if found[id] == nil { unknownReads += 1 }
                toRead.append(id)
            }
        }
        // Read at most 4 at a time, like every batch of API calls the panel makes.
        let client = upstream.client
        let details = await BoundedConcurrency.map(toRead, limit: ImportService.concurrency) { id -> ProductDetail? in
            try? await client.product(id: id)
        }
        for (id, detail) in zip(toRead, details) {
            guard let detail else { continue }
            found[id] = ImportPlanner.Existing(id: id, vendorID: detail.vendorID, name: detail.name,
                                               description: detail.description, currency: detail.currency,
                                               price: detail.price, discountedPrice: detail.discountedPrice,
                                               stock: detail.stock)
        }
        return found
    }

    /// `GET /products/import/{import}[?show=errors]`: the preview again (only its error rows with
    /// `show=errors`), or after an apply each row's outcome.
    func importPage(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let context = context.withFormKey()
        let batch = try await ownedImport(request, context: context)
        let applied = batch.rows.values.contains { $0.state != .pending }
        if applied { return try importResultPage(batch, context: context) }
        return try importPreviewPage(batch.plan, importID: batch.id, fileName: batch.fileName, context: context, status: 200,
                                     open: importLive(batch), errorsOnly: request.query["show"] == "errors")
    }

    /// `POST /products/import/{import}/apply`: sends every row not done yet, then 303 to the results.
    func importApply(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let form = try await request.urlencodedForm(limits: FormLimits(maxFields: 8, maxFieldBytes: 1024))
        try pages.requireCSRF(context, formToken: form["csrf_token"])
        let l = context.localizer
        let batch = try await ownedImport(request, context: context)
        guard importOpen(batch) else {
            throw PageFailure(status: 410, heading: "import_expired_heading", message: "import_expired_message")
        }
        // The strict default: while rows are in error nothing is sent, unless the seller chose
        // the second button, which sends only the rows without errors.
        guard !batch.plan.hasErrors || form["skip_errors"] == "1" else {
            throw PageFailure(status: 422, heading: "import_errors_refused_heading", message: "import_errors_refused_message",
                              retryURL: "/products/import/\(batch.id)")
        }
        guard imports.begin(batch.id) else {
            return pages.redirect(to: "/products/import/\(batch.id)", flash: l("import_flash_running"))
        }
        defer { imports.end(batch.id) }
        // Read again inside the claim: another apply may have finished rows meanwhile.
        guard let current = try await imports.store.batch(batch.id) else { throw PageFailure.notFound() }
        await applyImport(current, context: context, request: request)
        guard let after = try await imports.store.batch(batch.id) else { throw PageFailure.notFound() }
        let done = after.rows.values.filter { $0.state == .done }.count
        let failed = after.rows.count - done
        let flash = failed == 0 ? l("import_flash_done", ["done": l.number(done)])
            : l("import_flash_some_failed", ["done": l.number(done), "failed": l.number(failed)])
        return pages.redirect(to: "/products/import/\(batch.id)", flash: flash)
    }

    /// `GET /products/import/{import}/status.json`: rows done and to do (the progress bar).
    func importStatus(_ request: HTTPRequest, _ context: PanelContext) async -> HTTPResponse {
        guard let id = request.pathParameters["import"], id.count <= 64,
              let batch = try? await imports.store.batch(id), Secrets.equal(batch.person, context.person) else {
            return .text("{}", status: 404)
        }
        let finished = batch.rows.values.filter { $0.state == .done || $0.state == .failed }.count
        var response = HTTPResponse.text("{\"finished\":\(finished),\"total\":\(batch.rows.count)}")
        response.headers["Content-Type"] = "application/json"
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    func ownedImport(_ request: HTTPRequest, context: PanelContext) async throws -> ImportStore.Batch {
        guard let id = request.pathParameters["import"], id.count <= 64,
              let batch = try await imports.store.batch(id), Secrets.equal(batch.person, context.person) else {
            throw PageFailure.notFound()
        }
        return batch
    }

    func importOpen(_ batch: ImportStore.Batch) -> Bool {
        importLive(batch) && batch.rows.values.contains { $0.state != .done }
    }

    /// Within its 24 hours: it can be applied, and a corrected file can take its photos.
    func importLive(_ batch: ImportStore.Batch) -> Bool {
        pages.configuration.now().timeIntervalSince(batch.createdAt) < ImportService.lifetime
    }
}
