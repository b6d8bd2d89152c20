import Foundation
import HTTPServer
import OpenMarketCore

/// An image the seller already sent, kept on disk so a form that comes back with errors (or a
/// failed API call) does not make them pick their files again.
struct StagedImage: Sendable, Equatable {
    var id: Int
    var filename: String
    var format: ImageFormat
    var size: Int
    var path: String
}

/// Images staged under an unguessable token, owned by one session, in a private (0700) folder
/// (the `staging` folder of the panel's `ScratchFolder` under DATA/uploads, so a crash leaves
/// nothing behind after the next start). A batch expires an hour after it was last touched and is removed once the product is
/// created. Disk and memory use are bounded: the least recently touched batches go first when the
/// total passes `maxTotalBytes` or the count passes `maxBatches` (every failed submit with an image
/// keeps a batch for an hour, so without a count a stream of them grew memory for an hour).
/// Its file reads and writes block, so the actor runs on a thread of its own, never on the
/// concurrency pool that serves requests.
actor StagedUploads {
    private struct Batch {
        var owner: String
        var touched: Date
        var images: [StagedImage]
        var nextID: Int
    }

    enum Failure: Error, Equatable { case expired }

    private var batches: [String: Batch] = [:]
    private let directory: URL
    private let lifetime: TimeInterval
    private let maxImagesPerBatch: Int
    private let maxTotalBytes: Int
    private let maxBatches: Int
    private let now: @Sendable () -> Date
    private let executor = BlockingThread()

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(directory: URL, lifetime: TimeInterval, maxImagesPerBatch: Int = 10,
         maxTotalBytes: Int = 256 << 20, maxBatches: Int = 2_000, now: @escaping @Sendable () -> Date) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        self.directory = directory
        self.lifetime = lifetime
        self.maxImagesPerBatch = maxImagesPerBatch
        self.maxTotalBytes = maxTotalBytes
        self.maxBatches = max(1, maxBatches)
        self.now = now
    }

    /// The images of a live batch, or nil when the token is unknown, expired or someone else's.
    func images(token: String, owner: String) -> [StagedImage]? {
        purgeExpired()
        guard let batch = batches[token], Secrets.equal(batch.owner, owner) else { return nil }
        return batch.images
    }

    /// Adds images to the batch `token` (a new batch when nil), drops the ids in `remove`, and
    /// answers the token and the batch's images in order. Throws `.expired` for a dead token.
    func stage(token: String?, owner: String, adding files: [(filename: String, data: Data, format: ImageFormat)],
               removing remove: Set<Int>) throws -> (token: String, images: [StagedImage]) {
        purgeExpired()
        let key: String
        var batch: Batch
        if let token {
            guard let existing = batches[token], Secrets.equal(existing.owner, owner) else { throw Failure.expired }
            key = token
            batch = existing
        } else {
            key = SecureToken.make()
            batch = Batch(owner: owner, touched: now(), images: [], nextID: 1)
        }
        for image in batch.images where remove.contains(image.id) {
            try? FileManager.default.removeItem(atPath: image.path)
        }
        batch.images.removeAll { remove.contains($0.id) }
        for file in files where batch.images.count < maxImagesPerBatch {
            let id = batch.nextID
            batch.nextID += 1
            let path = directory.appendingPathComponent("\(key)-\(id).\(file.format.fileExtension)").path
            guard FileManager.default.createFile(atPath: path, contents: file.data,
                                                 attributes: [.posixPermissions: 0o600]) else { continue }
            batch.images.append(StagedImage(id: id, filename: file.filename, format: file.format,
                                            size: file.data.count, path: path))
        }
        batch.touched = now()
        batches[key] = batch
        enforceBounds(keeping: key)
        return (key, batch.images)
    }

    /// The bytes of one staged image, for previews and for the final upload.
    func data(token: String, owner: String, id: Int) -> (data: Data, format: ImageFormat)? {
        guard let image = images(token: token, owner: owner)?.first(where: { $0.id == id }),
              let data = FileManager.default.contents(atPath: image.path) else { return nil }
        return (data, image.format)
    }

    /// The bytes of an uploaded file; a large one was spooled to disk by the server, so it is
    /// read here, on the staging thread, rather than on the pool.
    func read(_ file: UploadedFile) throws -> Data {
        try file.data()
    }

    func discard(token: String) {
        guard let batch = batches.removeValue(forKey: token) else { return }
        for image in batch.images { try? FileManager.default.removeItem(atPath: image.path) }
    }

    /// Removes every batch and the folder itself (at shutdown).
    func removeAll() {
        for token in Array(batches.keys) { discard(token: token) }
        try? FileManager.default.removeItem(at: directory)
    }

    func purgeExpired() {
        let time = now()
        for (token, batch) in batches where time.timeIntervalSince(batch.touched) >= lifetime {
            discard(token: token)
        }
    }

    private func enforceBounds(keeping current: String) {
        var total = batches.values.reduce(0) { $0 + $1.images.reduce(0) { $0 + $1.size } }
        guard total > maxTotalBytes || batches.count > maxBatches else { return }
        for (token, batch) in batches.sorted(by: { $0.value.touched < $1.value.touched }) where token != current {
            discard(token: token)
            total -= batch.images.reduce(0) { $0 + $1.size }
            if total <= maxTotalBytes && batches.count <= maxBatches { break }
        }
    }
}
