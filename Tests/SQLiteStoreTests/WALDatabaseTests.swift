import Foundation
import Testing
@testable import SQLiteStore

/// The one home of SQLite: how every store opens its file, and what it promises about order.
@Suite struct WALDatabaseTests {
    private static let schema = "CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);"

    private static func freshPath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlitestore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("store.sqlite").path
    }

    @Test func opensInWALWithFullSyncAndAReadOnlyReader() throws {
        let database = try WALDatabase(path: Self.freshPath(), schema: Self.schema, label: "test")
        var mode = "", synchronous = -1
        try database.writer.performNow { connection in
            try connection.query("PRAGMA journal_mode") { mode = $0.string(0) }
            try connection.query("PRAGMA synchronous") { synchronous = $0.int(0) }
        }
        #expect(mode == "wal")
        #expect(synchronous == 2, "FULL: a commit is on disk before it returns")
        #expect(throws: SQLiteError.self) {
            try database.reader.performNow { try $0.run("INSERT INTO notes (body) VALUES ('x')") }
        }
    }

    @Test func aPrivateFileIsReadableByItsOwnerOnly() throws {
        let path = try Self.freshPath()
        _ = try WALDatabase(path: path, schema: Self.schema, label: "test", privateFile: true)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aDamagedFileIsRefusedByNameAndLeftAsItWas() throws {
        let path = try Self.freshPath()
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: path))
        do {
            _ = try WALDatabase(path: path, schema: Self.schema, label: "test")
            Issue.record("a damaged file was opened")
        } catch let error as SQLiteError {
            #expect(error.message.contains(path))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage, "never reset silently")
    }

    @Test func aTruncatedDatabaseIsRefused() throws {
        let path = try Self.freshPath()
        do {
            let database = try WALDatabase(path: path, schema: Self.schema, label: "test")
            try database.writer.performNow { connection in
                for index in 0..<500 { try connection.run("INSERT INTO notes (body) VALUES (?)", [.text(String(repeating: "n\(index)", count: 40))]) }
                try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 6000)
        try handle.close()
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        #expect(throws: SQLiteError.self) { try WALDatabase(path: path, schema: Self.schema, label: "test") }
    }

    /// Concurrent callers each get the connection alone: read-modify-write without a transaction
    /// of its own still counts every caller once.
    @Test func concurrentWorkOnTheWriterNeverInterleaves() async throws {
        let database = try WALDatabase(path: Self.freshPath(), schema: "CREATE TABLE IF NOT EXISTS counter (n INTEGER NOT NULL); INSERT INTO counter SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM counter);", label: "test")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    try await database.writer.perform { connection in
                        var value = 0
                        try connection.query("SELECT n FROM counter") { value = $0.int(0) }
                        try connection.run("UPDATE counter SET n = ?", [.integer(value + 1)])
                    }
                }
            }
            try await group.waitForAll()
        }
        let total = try await database.reader.perform { connection in
            var value = 0
            try connection.query("SELECT n FROM counter") { value = $0.int(0) }
            return value
        }
        #expect(total == 200)
    }

    /// Work awaited one after another lands in that order, and the reader sees each commit.
    @Test func awaitedWritesLandInOrderAndTheReaderSeesThem() async throws {
        let database = try WALDatabase(path: Self.freshPath(), schema: Self.schema, label: "test")
        for index in 0..<50 {
            try await database.writer.perform { try $0.run("INSERT INTO notes (body) VALUES (?)", [.text("note \(index)")]) }
        }
        let bodies = try await database.reader.perform { connection in
            var bodies: [String] = []
            try connection.query("SELECT body FROM notes ORDER BY id") { bodies.append($0.string(0)) }
            return bodies
        }
        #expect(bodies == (0..<50).map { "note \($0)" })
    }

    @Test func aFailedTransactionLeavesNothingBehind() throws {
        let database = try WALDatabase(path: Self.freshPath(), schema: Self.schema, label: "test")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try database.writer.performNow { connection in
                try connection.transaction {
                    try connection.run("INSERT INTO notes (body) VALUES ('half')")
                    throw Stop()
                }
            }
        }
        var count = -1
        try database.reader.performNow { try $0.query("SELECT count(*) FROM notes") { count = $0.int(0) } }
        #expect(count == 0)
    }
}
