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

    /// Writes the photos a preview's creates need, each synced, before the preview is stored.
    func keep(_ files: [(name: String, data: Data)], for id: String) throws -> [String: String] {
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
        return stored
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
