import Foundation
import HTTPServer
import OpenMarketCore

extension ImportController {
    /// One row's apply result.
    struct ImportRowResult: Sendable {
        var line: Int
        var done: Bool
        var productID: Int?
        var reason: String
        var product: ProductDetail?
        var changes: [ActivityEntry.FieldChange] = []
        /// Created by an earlier apply whose answer was lost, and found now.
        var found = false
    }

    /// Applies every row of `batch` not yet done, at most `ImportService.concurrency` at a time.
    /// Each create's intent is stored before the API is asked; a create whose answer was lost
    /// (`sending` on a later apply) is first looked for among the vendor's products and only sent
    /// again when it is not there, so nothing is created twice.
    func applyImport(_ batch: ImportStore.Batch, context: PanelContext, request: HTTPRequest) async {
        let pending = batch.plan.applicable.filter { batch.rows[$0.line]?.state != .done }
        let requester = ProductWriter.Requester(context, request)
        _ = await BoundedConcurrency.map(pending, limit: ImportService.concurrency, whenDone: { result in
            // A create whose lost answer was found among the vendor's products: written earlier, recorded now.
            if result.found, let product = result.product { await catalogSeen(product) }
            if result.done, let id = result.productID {
                await upstream.writer.record(.init(action: "import", changes: result.changes,
                                          detail: ActivityDetail("import_row", ["line": String(result.line),
                                                                                "file": batch.fileName]).stored),
                                    productID: id, by: requester)
            }
        }) { row in
            await self.applyImportRow(row, batch: batch, by: requester)
        }
    }

    private func applyImportRow(_ row: ImportRow, batch: ImportStore.Batch, by requester: ProductWriter.Requester) async -> ImportRowResult {
        imports.gauge.enter()
        defer { imports.gauge.leave() }
        let store = imports.store
        var result = ImportRowResult(line: row.line, done: false, productID: row.productID, reason: "")
        do {
            if let update = row.update, let id = row.productID {
                try await store.markSending(batch.id, line: row.line, at: pages.configuration.now(), afterID: nil)
                let changes = ProductChanges(name: update.name, description: update.description, price: update.price,
                                             currency: update.currency.flatMap(Currency.init(rawValue:)),
                                             discountedPrice: update.discountedPrice, stock: update.stock)
                let answer: Result<ProductDetail, OpenMarketError>
                do throws(OpenMarketError) { answer = .success(try await upstream.writer.update(id, changes, by: requester, note: nil)) } catch {
                    answer = .failure(error)
                }
                switch answer {
                case .success(let product):
                    result.product = product
                    result.done = true
                    result.changes = row.changes.map { .init(field: $0.field, old: $0.old, new: $0.new) }
                    try await store.finish(batch.id, line: row.line, state: .done, productID: id, reason: "")
                case .failure(let error):
                    result.reason = ImportReason.encode("import_reason_api", ["reason": error.description])
                    try await store.finish(batch.id, line: row.line, state: .failed, productID: id, reason: result.reason)
                }
            } else if let draft = row.create {
                result = try await applyImportCreate(row, draft, batch: batch, by: requester)
            }
        } catch {
            result.reason = ImportReason.encode("import_reason_not_recorded", ["reason": "\(error)"])
        }
        return result
    }

    private func applyImportCreate(_ row: ImportRow, _ draft: ImportNewProduct, batch: ImportStore.Batch,
                                   by requester: ProductWriter.Requester) async throws -> ImportRowResult {
        let store = imports.store
        var result = ImportRowResult(line: row.line, done: false, productID: nil, reason: "")
        let ownVendor = await upstream.vendor.id
        // A create sent before whose answer never came: is the product there?
        if let earlier = batch.rows[row.line], earlier.state == .sending {
            let search: Result<ProductListItem?, OpenMarketError>
            do throws(OpenMarketError) {
                search = .success(try await findImported(draft, after: earlier.intentAfterID, vendorID: ownVendor))
            } catch {
                search = .failure(error)
            }
            switch search {
            case .success(let found?):
                result.done = true
                result.found = true
                result.productID = found.id
                result.product = try? await upstream.client.product(id: found.id)
                result.changes = row.changes.map { .init(field: $0.field, old: "", new: $0.new) }
                try await store.finish(batch.id, line: row.line, state: .done, productID: found.id, reason: "")
                return result
            case .success(nil):
                break
            case .failure(let error):
                // Unknown whether it exists: never risk a second one.
                result.reason = ImportReason.encode("import_reason_maybe_created", ["reason": error.description])
                return result
            }
        }
        var uploads: [ImageUpload] = []
        for image in draft.images {
            do {
                uploads.append(try await importImage(image, batch: batch))
            } catch let failure as ImportImageFailure {
                result.reason = failure.reason
                try await store.finish(batch.id, line: row.line, state: .failed, productID: nil, reason: result.reason)
                return result
            }
        }
        let product = NewProduct(name: draft.name, description: draft.description, price: draft.price,
                                 currency: Currency(rawValue: draft.currency) ?? .KRW, discountedPrice: draft.discountedPrice,
                                 stock: draft.stock, images: uploads)
        let highest = upstream.catalogService.copy.snapshot().products.map(\.id).max()
        try await store.markSending(batch.id, line: row.line, at: pages.configuration.now(), afterID: highest)
        let answer: Result<ProductDetail, OpenMarketError>
        do throws(OpenMarketError) { answer = .success(try await upstream.writer.create(product, by: requester, note: nil)) } catch {
            answer = .failure(error)
        }
        switch answer {
        case .success(let created):
            result.done = true
            result.productID = created.id
            result.product = created
            result.changes = row.changes.map { .init(field: $0.field, old: "", new: $0.new) }
            try await store.finish(batch.id, line: row.line, state: .done, productID: created.id, reason: "")
        case .failure(let error):
            result.reason = ImportReason.encode("import_reason_api", ["reason": error.description])
            switch error {
            case .timeout, .unreachable, .server, .undecodable:
                // The API may have created it: stays `sending`, looked for before the next try.
                break
            default:
                try await store.finish(batch.id, line: row.line, state: .failed, productID: nil, reason: result.reason)
            }
        }
        return result
    }

    /// A product of this vendor with the draft's name, price and currency and an id above what the
    /// panel knew before sending: the one an earlier try created.
    private func findImported(_ draft: ImportNewProduct, after: Int?, vendorID: Int?) async throws(OpenMarketError) -> ProductListItem? {
        let page = try await upstream.client.listProducts(page: 1, itemsPerPage: 100, search: draft.name)
        return page.pages.filter { item in
            item.name == draft.name && item.currency.rawValue == draft.currency
                && (item.price * 100).rounded() == (draft.price * 100).rounded()
                && (vendorID == nil || item.vendorID == vendorID) && (after == nil || item.id > after!)
        }.min { $0.id < $1.id }
    }

    /// An uploaded photo from the import's folder, or a URL fetched now (and shrunk to fit).
    private func importImage(_ reference: String, batch: ImportStore.Batch) async throws -> ImageUpload {
        if let url = ImageAddress.webURL(reference) {
            let fetched: (filename: String, data: Data)
            do {
                fetched = try await ImageFetcher(client: outbound, trustedOrigins: [pages.configuration.api.baseURL] + pages.configuration.mediaOrigins,
                                                 maxBytes: pages.configuration.uploadLimit, timeout: pages.configuration.api.timeout).fetch(url)
            } catch let failure as ImageFetcher.Failure {
                throw ImportImageFailure(key: failure.key, arguments: failure.arguments.merging(["file": reference]) { own, _ in own },
                                         message: "‘\(reference)’: \(failure.message)")
            }
            let fitted = try await imageStager.shrinkForUpload(fetched.data, filename: fetched.filename)
            return ImageUpload(filename: fitted.filename, data: fitted.data)
        }
        let imports = imports
        let stored = batch.plan.files[reference]
        let data = await imports.shrinking.run { stored.flatMap { imports.read($0, of: batch.id) } }
        guard let data else {
            throw ImportImageFailure(key: "import_reason_photo_gone", arguments: ["file": reference],
                                     message: "The photo ‘\(reference)’ kept with this import is gone; import the file again.")
        }
        return ImageUpload(filename: reference, data: data)
    }

}
