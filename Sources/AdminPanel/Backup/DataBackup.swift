import Foundation
import NetworkIO
import SQLiteStore
#if canImport(Glibc)
import Glibc
#endif

/// A consistent copy of `DATA` taken while the panel (and its embedded sandbox) runs.
///
/// - every `*.sqlite` at the top of `DATA` (panel.sqlite, openmarket.sqlite, openmarket-v1.sqlite)
///   through SQLite's online backup: one snapshot each, every committed row, no half transaction;
/// - the sandbox's image files that the copied rows name (an image file is written and synced
///   before the row naming it commits, and never changes after, so a name in the snapshot means
///   a whole file). A file deleted between the snapshot and its copy (a product deleted
///   meanwhile) makes that store's copy start over from a newer snapshot;
/// - every other file and folder (`tls/`, `vendors.json`, folders other features keep) as is,
///   except `uploads/` (scratch space of uploads in progress) and SQLite's `-wal`/`-shm` files.
///
/// DIR must be a real folder of this user (never a symbolic link); files are created there
/// without following links (`O_NOFOLLOW | O_EXCL`), 0600, and folders 0700 (the copy holds password hashes, sessions, vendor
/// secrets and the TLS key) and synced. `DATA` is only read: a failure (a folder that is not
/// empty, not writable, a full disk) removes what this run wrote and throws one line.
public enum DataBackup {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public struct Summary: Sendable {
        public var databases: [String] = []
        public var files = 0
        public var bytes = 0
    }

    /// A store whose rows name files in a folder beside it.
    struct MediaStore {
        var database: String
        var folder: String
        var namesQuery: String
    }

    static let mediaStores = [
        MediaStore(database: "openmarket.sqlite", folder: "media",
                   namesQuery: "SELECT file_name FROM images UNION SELECT thumbnail_file FROM products WHERE thumbnail_file <> ''"),
        MediaStore(database: "openmarket-v1.sqlite", folder: "media-v1", namesQuery: "SELECT file_name FROM v1_images"),
    ]

    /// Never copied: scratch space of the running processes.
    static let skipped: Set<String> = ["uploads"]
    static let sqliteSideFiles = ["-wal", "-shm", "-journal"]

    public static func run(data: URL, into destination: URL) throws -> Summary {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: data.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw Failure(description: "there is no data folder at \(data.path) (pass --data DIR or set OPENMARKET_DATA)")
        }
        let created = try prepare(destination)
        do {
            var summary = Summary()
            try copyContents(of: data, into: destination, summary: &summary)
            try syncFolder(destination.path)
            return summary
        } catch {
            // Leave nothing half-written behind: the next try needs an empty folder.
            if let entries = try? FileManager.default.contentsOfDirectory(atPath: destination.path) {
                for entry in entries { try? FileManager.default.removeItem(at: destination.appendingPathComponent(entry)) }
            }
            if created { rmdir(destination.path) }
            if let failure = error as? Failure { throw failure }
            throw Failure(description: "\(error)")
        }
    }

    /// Makes sure `destination` is an empty private folder of this user, never a symbolic link
    /// (whose target, perhaps someone else's folder, would get the copy and a chmod); true when
    /// this run created it.
    private static func prepare(_ destination: URL) throws -> Bool {
        var status = stat()
        if lstat(destination.path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFLNK {
                throw Failure(description: "\(destination.path) is a symbolic link: back up into a real folder")
            }
            guard status.st_mode & S_IFMT == S_IFDIR else { throw Failure(description: "\(destination.path) exists and is not a folder") }
            guard status.st_uid == geteuid() else {
                throw Failure(description: "\(destination.path) belongs to another user: back up into a folder of your own")
            }
            let entries: [String]
            do {
                entries = try FileManager.default.contentsOfDirectory(atPath: destination.path)
            } catch {
                throw Failure(description: "cannot read \(destination.path): \(error.localizedDescription)")
            }
            guard entries.isEmpty else {
                throw Failure(description: "\(destination.path) is not empty: back up into a new or empty folder")
            }
            // The folder itself, not whatever its name points to by now.
            let folder = open(destination.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard folder >= 0 else { throw Failure(description: "cannot open \(destination.path): \(String(cString: strerror(errno)))") }
            defer { close(folder) }
            guard access(destination.path, W_OK) == 0, fchmod(folder, 0o700) == 0 else {
                throw Failure(description: "cannot write to \(destination.path): \(String(cString: strerror(errno)))")
            }
            return false
        }
        guard mkdir(destination.path, 0o700) == 0 else {
            throw Failure(description: "cannot create \(destination.path): \(String(cString: strerror(errno)))")
        }
        return true
    }

    private static func copyContents(of data: URL, into destination: URL, summary: inout Summary) throws {
        let entries = try FileManager.default.contentsOfDirectory(atPath: data.path).sorted()
        let mediaFolders = Set(mediaStores.map(\.folder))
        for name in entries {
            if skipped.contains(name) || mediaFolders.contains(name) { continue }
            if sqliteSideFiles.contains(where: { name.hasSuffix(".sqlite" + $0) }) { continue }
            let source = data.appendingPathComponent(name), target = destination.appendingPathComponent(name)
            if name.hasSuffix(".sqlite") {
                if let store = mediaStores.first(where: { $0.database == name }) {
                    try copyStore(store, from: data, into: destination, summary: &summary)
                } else {
                    try backUpDatabase(source.path, to: target.path)
                }
                summary.databases.append(name)
            } else {
                try copyTree(source, to: target, summary: &summary)
            }
        }
    }

    private static func backUpDatabase(_ source: String, to target: String) throws {
        do {
            try OnlineBackup.copy(source, to: target)
        } catch let error as SQLiteError {
            throw Failure(description: error.message)
        }
    }

    /// A database and the files its snapshot names; starts over (at most 5 times) when a named
    /// file was deleted before it could be copied.
    private static func copyStore(_ store: MediaStore, from data: URL, into destination: URL, summary: inout Summary) throws {
        let database = destination.appendingPathComponent(store.database)
        let folder = destination.appendingPathComponent(store.folder)
        for _ in 0..<5 {
            try backUpDatabase(data.appendingPathComponent(store.database).path, to: database.path)
            var names: [String] = []
            do {
                let copy = try SQLiteConnection(path: database.path)
                defer { copy.close() }
                try copy.query(store.namesQuery) { names.append($0.string(0)) }
            } catch {
                throw Failure(description: "cannot read the backed-up \(store.database): \(error)")
            }
            guard mkdir(folder.path, 0o700) == 0 else {
                throw Failure(description: "cannot create \(folder.path): \(String(cString: strerror(errno)))")
            }
            var files = 0, bytes = 0, complete = true
            for name in names where !name.isEmpty && !name.contains("/") && !name.hasPrefix(".") {
                let source = data.appendingPathComponent(store.folder).appendingPathComponent(name)
                guard let copied = try copyFile(source.path, to: folder.appendingPathComponent(name).path, missingIsNil: true) else {
                    complete = false
                    break
                }
                files += 1
                bytes += copied
            }
            if complete {
                try syncFolder(folder.path)
                summary.files += files
                summary.bytes += bytes
                return
            }
            try? FileManager.default.removeItem(at: folder)
            unlink(database.path)
        }
        throw Failure(description: "\(store.folder) kept changing during the backup; try again")
    }

    /// A file or a folder (recursively), private; symbolic links and special files are skipped.
    private static func copyTree(_ source: URL, to target: URL, summary: inout Summary) throws {
        var status = stat()
        guard lstat(source.path, &status) == 0 else { return }   // removed meanwhile
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            if let copied = try copyFile(source.path, to: target.path, missingIsNil: true) {
                summary.files += 1
                summary.bytes += copied
            }
        case S_IFDIR:
            guard mkdir(target.path, 0o700) == 0 else {
                throw Failure(description: "cannot create \(target.path): \(String(cString: strerror(errno)))")
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: source.path)) ?? []
            for name in entries.sorted() {
                try copyTree(source.appendingPathComponent(name), to: target.appendingPathComponent(name), summary: &summary)
            }
            try syncFolder(target.path)
        default:
            return
        }
    }

    /// Copies one file (0600, synced); answers its size, or nil when the source is gone.
    private static func copyFile(_ source: String, to target: String, missingIsNil: Bool) throws -> Int? {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        if input < 0 {
            if errno == ENOENT && missingIsNil { return nil }
            throw Failure(description: "cannot read \(source): \(String(cString: strerror(errno)))")
        }
        defer { close(input) }
        let output = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw Failure(description: "cannot create \(target): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        let size = 1 << 20
        var buffer = [UInt8](repeating: 0, count: size)
        var total = 0
        while true {
            let n = read(input, &buffer, size)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Failure(description: "cannot read \(source): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            if let code = FileOutput.writeAll(output, buffer[..<n]) {
                throw Failure(description: "cannot write \(target): \(String(cString: strerror(code)))")
            }
            total += n
        }
        guard fsync(output) == 0 else { throw Failure(description: "cannot write \(target): \(String(cString: strerror(errno)))") }
        return total
    }

    private static func syncFolder(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw Failure(description: "cannot sync \(path): \(String(cString: strerror(errno)))") }
    }
}
