import Foundation
import NetworkIO
import SQLiteStore

/// What the import pages share: the store, the folder of each import's photos
/// (`DATA/imports/{id}/`, private, kept as long as the import can be applied), the imports being
/// applied right now (one apply per import at a time, so a double click cannot send a row
/// twice), and a thread of its own for reading files and spreadsheets (photos are shrunk on
/// `ImageStager`'s workers).
final class ImportService: Sendable {
    /// A preview can be applied this long after it was made.
    static let lifetime: TimeInterval = 24 * 3600
    static let maxFileBytes = 5 << 20
    static let maxRows = 1_000
    static let concurrency = 4
    /// Open previews kept per person (the oldest go first): bounds the photos kept on disk.
    static let maxImportsPerPerson = 20

    let store: ImportStore
    let directory: URL
    let gauge = ConcurrencyGauge()
    /// The import pages' CPU and file work (reading the spreadsheet, planning, keeping photos).
    let shrinking = BlockingThread()
    private let running = Locked<Set<String>>([])

    @available(*, noasync, message: "start-up only")
    init(database: PanelDatabase) throws {
        store = try ImportStore(database.writer)
        directory = URL(fileURLWithPath: database.database.path).deletingLastPathComponent()
            .appendingPathComponent("imports", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    func folder(_ id: String) -> URL { directory.appendingPathComponent(id, isDirectory: true) }

    /// Claims the import for one apply; false when another apply of it is running.
    func begin(_ id: String) -> Bool { running.withLock { $0.insert(id).inserted } }
    func end(_ id: String) { running.withLock { _ = $0.remove(id) } }

    /// Photos one preview keeps, with those a corrected file's re-upload carries over: at most
    /// as many files as one upload can bring, and four uploads' worth of bytes (each photo is
    /// already shrunk to the API's 300 KB, so a seller adding photos over several re-uploads
    /// does not reach it; a loop of re-uploads cannot fill the disk).
    static let maxKeptPhotos = 256
    static func maxKeptPhotoBytes(uploadLimit: Int) -> Int { 4 * uploadLimit }

    /// Writes a preview's photos, each synced, before the preview is stored: `files` uploaded
    /// now, `inherited` kept by the preview a corrected file replaces (linked, not copied: the
    /// bytes stay once on disk; copied where the file system cannot link).
    func keep(_ files: [(name: String, data: Data)], inherited: [(name: String, file: URL)] = [],
              for id: String) throws -> [String: String] {
        let folder = folder(id)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var stored: [String: String] = [:]
        for (index, file) in files.enumerated() {
            let name = "\(index + 1).img"
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.createFile(atPath: url.path, contents: file.data, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
            let handle = try FileHandle(forWritingTo: url)
            try handle.synchronize()
            try handle.close()
            stored[file.name] = name
        }
        for (index, file) in inherited.enumerated() {
            let name = "\(files.count + index + 1).img"
            let url = folder.appendingPathComponent(name)
            do { try FileManager.default.linkItem(at: file.file, to: url) } catch { try FileManager.default.copyItem(at: file.file, to: url) }
            stored[file.name] = name
        }
        return stored
    }

    /// The stored file of a photo a preview keeps (nil for a name that is not one of its own).
    func file(_ storedName: String, of id: String) -> URL? {
        guard !storedName.isEmpty, !storedName.contains("/"), storedName != ".", storedName != ".." else { return nil }
        return folder(id).appendingPathComponent(storedName)
    }

    /// Removes a preview that was never applied, with its photos (a corrected file replaced it).
    func discard(_ id: String) async {
        guard (try? await store.delete(id)) != nil else { return }
        try? FileManager.default.removeItem(at: folder(id))
    }

    func read(_ storedName: String, of id: String) -> Data? {
        guard !storedName.contains("/") else { return nil }
        return FileManager.default.contents(atPath: folder(id).appendingPathComponent(storedName).path)
    }

    /// Keeps only a person's newest imports (after storing a new one).
    func trim(person: String) async {
        guard let ids = try? await store.trim(person: person, keep: Self.maxImportsPerPerson) else { return }
        for id in ids where !running.withLock({ $0.contains(id) }) { try? FileManager.default.removeItem(at: folder(id)) }
    }

    /// Imports past their lifetime, with their photos.
    func purge(now: Date) async {
        guard let ids = try? await store.purge(olderThan: now.addingTimeInterval(-Self.lifetime - 3600)) else { return }
        for id in ids { try? FileManager.default.removeItem(at: folder(id)) }
    }
}
