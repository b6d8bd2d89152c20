import Foundation
import OpenMarketCore

/// The order of every delete through the panel (single, bulk, v1): read the product, fetch each
/// of its images, write fields and images to `DATA/trash` and sync them, record the item in
/// panel.sqlite, and only then ask the API to delete. A failure before the API call deletes
/// nothing (`KeepFailure`); a refused delete (wrong password, not yours) discards the kept copy,
/// since the product is still there. Each step is a closure so tests can fail any one of them.
struct KeepThenDelete: Sendable {
    /// Why a product could not be kept (nothing was deleted).
    enum KeepFailure: Error, Equatable {
        /// An image could not be fetched from the API (its file name or number).
        case imageUnreadable(String)
        case diskFull
        case storage(String)
    }

    var read: @Sendable (Int) async throws(OpenMarketError) -> ProductDetail
    var fetchImage: @Sendable (ProductImage) async -> Data?
    var writeFiles: @Sendable (_ product: SavedProduct, _ images: [Data], _ folder: String) async throws -> Void
    var record: @Sendable (TrashItem) async throws -> Void
    var discard: @Sendable (TrashItem) async -> Void
    var now: @Sendable () -> Date

    /// Keeps `id` (throws `KeepFailure`, or the API's error reading it), then runs `delete`. A
    /// delete error is rethrown after discarding the copy when the product is still there.
    func run(_ id: Int, person: String,
             delete: @Sendable () async throws(OpenMarketError) -> ProductDetail) async throws -> ProductDetail {
        let item = try await keep(id, person: person)
        do {
            return try await delete()
        } catch {
            if await stillExists(id, after: error) { await discard(item) }
            throw error
        }
    }

    /// Writes the product's copy and records it; answers the item.
    func keep(_ id: Int, person: String) async throws -> TrashItem {
        let product = try await read(id)
        // The thumbnail's image first: a product registered again takes its first image as thumbnail.
        var images = product.images
        if let index = images.firstIndex(where: { $0.thumbnailURL == product.thumbnail || $0.url == product.thumbnail }), index > 0 {
            images.insert(images.remove(at: index), at: 0)
        }
        // A product registers with at most five images, so more could never come back (and a
        // hostile API listing hundreds must not hold a delete for minutes).
        images = Array(images.prefix(ProductRules.imageCount.upperBound))
        var bytes: [Data] = []
        for (index, image) in images.enumerated() {
            guard let data = await fetchImage(image) else {
                let name = image.url.split(separator: "/").last.map(String.init) ?? "#\(index + 1)"
                throw KeepFailure.imageUnreadable(String(name.prefix(80)))
            }
            bytes.append(data)
        }
        let entries = SavedProduct.imageEntries(zip(images, bytes).map { image, data in
            (filename: image.url.split(separator: "/").last.map(String.init) ?? "image", data: data)
        })
        let saved = SavedProduct(values: ProductFormValues(product: product, thumbnailID: nil), images: entries)
        let item = TrashItem(oldID: id, name: product.name, person: person, deletedAt: now(),
                             folder: "\(id)-\(SecureToken.make(byteCount: 6))")
        do {
            try await writeFiles(saved, bytes, item.folder)
        } catch let failure as DurableFolder.Failure {
            throw failure.isDiskFull ? KeepFailure.diskFull : KeepFailure.storage(failure.description)
        } catch {
            throw KeepFailure.storage(String(describing: error))
        }
        do {
            try await record(item)
        } catch {
            await discard(item)
            throw KeepFailure.storage(String(describing: error))
        }
        return item
    }

    /// After a failed delete: is the product certainly still there? A refusal says so; an
    /// ambiguous failure (timeout, 5xx) asks the API, and keeps the copy when it cannot tell.
    private func stillExists(_ id: Int, after error: any Error) async -> Bool {
        guard let error = error as? OpenMarketError else { return false }
        switch error {
        case .unauthorized, .forbidden, .validation, .badRequest: return true
        case .notFound: return false
        default:
            do throws(OpenMarketError) {
                _ = try await read(id)
                return true
            } catch {
                return false
            }
        }
    }
}
