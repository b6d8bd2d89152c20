import Foundation
import NetworkIO
import SQLiteStore

/// What the v2 store (`ProductStore`) and the v1 store (`V1Store`) share: one WAL database with a
/// writer and a reader, each on its own serial queue (readers never wait for a writer's fsync;
/// every commit is durable before it returns), a media folder whose files no row names are swept
/// at start (a crash or a failed request between writing a file and committing its row), and a
/// generation that grows with every committed change, so cached reads can tell they are stale.
final class MediaDatabase: Sendable {
    let media: MediaDirectory
    let writer: SerialDatabase
    let reader: SerialDatabase
    private let writes = Locked(0)

    var generation: Int { writes.value }
    func committed() { writes.withLock { $0 += 1 } }

    /// `fileNamesQuery` selects every media file name a row holds: the sweep keeps those.
    init(directory: URL, databaseFileName: String, mediaFolderName: String, schema: String, label: String,
         privateFile: Bool = true, fileNamesQuery: String) throws {
        // DATA holds secrets: a folder this creates is its owner's alone.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        media = try MediaDirectory(root: directory.appendingPathComponent(mediaFolderName))
        let database = try WALDatabase(path: directory.appendingPathComponent(databaseFileName).path, schema: schema,
                                       label: label, privateFile: privateFile)
        writer = database.writer
        reader = database.reader
        let known = try writer.performNow { connection in
            var names = Set<String>()
            try connection.query(fileNamesQuery) { names.insert($0.string(0)) }
            return names
        }
        media.removeOrphans(keeping: known)
    }

    /// Closes both connections after the work queued on them (the clean stop's last step).
    func close() async {
        await reader.close()
        await writer.close()
    }

    /// Inserts one record's rows (`insertRows` answers its new id) and answers the record as
    /// stored, read back in the same transaction. Its image files must already be durable.
    func insert<Record: Sendable>(_ insertRows: @escaping @Sendable (SQLiteConnection) throws -> Int,
                                  readBack: @escaping @Sendable (Int, SQLiteConnection) throws -> Record?) async throws -> Record {
        defer { committed() }
        return try await writer.perform { connection in
            try connection.transaction {
                let id = try insertRows(connection)
                guard let stored = try readBack(id, connection) else {
                    throw SQLiteError(code: 0, message: "inserted row \(id) vanished")
                }
                return stored
            }
        }
    }

    /// Many records in one transaction (sample data at start-up, blocking).
    func insertAllNow<Draft>(_ drafts: [Draft], _ insertRows: (Draft, SQLiteConnection) throws -> Int) throws {
        defer { committed() }
        try writer.performNow { connection in
            try connection.transaction {
                for draft in drafts { _ = try insertRows(draft, connection) }
            }
        }
    }
}
