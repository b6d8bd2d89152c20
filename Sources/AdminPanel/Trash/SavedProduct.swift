import Foundation
import HTTPServer
import OpenMarketCore

/// A product's fields and images as the trash and drafts keep them on disk: the form's values as
/// text (exactly what the register form shows again) and each image's file in the same folder.
struct SavedProduct: Codable, Sendable, Equatable {
    struct Image: Codable, Sendable, Equatable {
        /// The file inside the item's folder (`image-1.jpg`…), never a name from a request.
        var file: String
        /// The name the seller's file had (shown, and sent to the API again).
        var filename: String
    }

    var name: String
    var description: String
    var price: String
    var currency: String
    var discountedPrice: String
    var stock: String
    var images: [Image]

    init(values: ProductFormValues, images: [Image]) {
        name = values.name
        description = values.description
        price = values.price
        currency = values.currency
        discountedPrice = values.discountedPrice
        stock = values.stock
        self.images = images
    }

    var values: ProductFormValues {
        var values = ProductFormValues()
        values.name = name
        values.description = description
        values.price = price
        values.currency = currency
        values.discountedPrice = discountedPrice
        values.stock = stock
        return values
    }

    static let fieldsFile = "product.json"

    /// The folder's files: the fields as JSON and each image under its `file` name.
    static func files(of product: SavedProduct, imageData: [Data]) throws -> [(name: String, data: Data)] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var files = [(name: fieldsFile, data: try encoder.encode(product))]
        for (image, data) in zip(product.images, imageData) { files.append((image.file, data)) }
        return files
    }

    /// `image-1.png`… for each image's bytes, by their real format.
    static func imageEntries(_ images: [(filename: String, data: Data)]) -> [Image] {
        images.enumerated().map { index, image in
            let ext = ImageFormat.detect(image.data)?.fileExtension ?? "bin"
            return Image(file: "image-\(index + 1).\(ext)", filename: image.filename)
        }
    }
}

/// The folders of kept products and drafts under `DATA` (`trash/`, `drafts/`). Writes are durable
/// (`DurableFolder`); every file call blocks, so the actor runs on a thread of its own.
actor SafetyFiles {
    enum Failure: Error, Equatable {
        /// The folder or one of its images is missing or unreadable.
        case missing(String)
    }

    let root: URL
    private let executor = BlockingThread()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(root: URL) { self.root = root }

    func keep(_ product: SavedProduct, imageData: [Data], area: String, folder: String) throws {
        try DurableFolder.commit(SavedProduct.files(of: product, imageData: imageData),
                                 in: root.appendingPathComponent(area), as: folder)
    }

    /// The fields and every image's bytes, or `.missing` naming what cannot be read.
    func read(area: String, folder: String) throws -> (product: SavedProduct, images: [ImageUpload]) {
        let base = root.appendingPathComponent(area).appendingPathComponent(folder)
        guard let json = FileManager.default.contents(atPath: base.appendingPathComponent(SavedProduct.fieldsFile).path),
              let product = try? JSONDecoder().decode(SavedProduct.self, from: json) else {
            throw Failure.missing(SavedProduct.fieldsFile)
        }
        var uploads: [ImageUpload] = []
        for image in product.images {
            guard !image.file.contains("/"), let data = FileManager.default.contents(atPath: base.appendingPathComponent(image.file).path),
                  !data.isEmpty else { throw Failure.missing(image.filename) }
            uploads.append(ImageUpload(filename: image.filename, data: data))
        }
        return (product, uploads)
    }

    func remove(area: String, folder: String) {
        guard !folder.isEmpty, !folder.contains("/") else { return }
        try? FileManager.default.removeItem(at: root.appendingPathComponent(area).appendingPathComponent(folder))
    }

    /// Folders of `area` that no stored row names (a crash between the files and the row), and
    /// half-written ones. Only folders untouched for an hour (by the file system's clock): a
    /// keep in progress has its folder before its row, and must not lose it to a sweep.
    func removeOrphans(area: String, keeping known: Set<String>) {
        let parent = root.appendingPathComponent(area)
        let cutoff = Date().addingTimeInterval(-3600)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] where !known.contains(name) {
            let folder = parent.appendingPathComponent(name)
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: folder.path))?[.modificationDate] as? Date,
                  modified < cutoff else { continue }
            try? FileManager.default.removeItem(at: folder)
        }
    }
}
