import Dispatch
import Foundation
import NetworkIO
import OpenMarketCore
#if canImport(Glibc)
import Glibc
#endif

/// The folder of uploaded image files. Files are immutable once named: a new upload always gets
/// a new random name, so a name is also a strong ETag.
///
/// Durability: bytes go to a temporary name, are fsync'd, renamed to their final name and the
/// folder is fsync'd — all before the database row that names the file commits. A crash before
/// the commit leaves an unnamed file, which `removeOrphans` deletes on the next start.
struct MediaDirectory: Sendable {
    let root: URL
    private static let temporaryPrefix = ".tmp-"

    init(root: URL) throws {
        self.root = root
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// The path of a stored file, or nil when `name` is not one of our generated names
    /// (so a request path can never reach outside the folder).
    func path(of name: String) -> String? {
        guard Self.isGeneratedName(name) else { return nil }
        return root.appendingPathComponent(name).path
    }

    /// Writes `bytes` under a fresh name ending in `fileExtension`; returns the name.
    /// `durable: false` skips the fsyncs, for callers that sync everything at once (`syncEverything`).
    func store(_ bytes: [UInt8], fileExtension: String, durable: Bool = true) throws -> String {
        let name = RandomToken.hex(byteCount: 16) + "." + fileExtension
        let temporary = root.appendingPathComponent(Self.temporaryPrefix + name).path
        let final = root.appendingPathComponent(name).path
        do {
            try writeFile(bytes, to: temporary, sync: durable)
            guard rename(temporary, final) == 0 else { throw POSIXFailure("rename", errno) }
            if durable { try syncDirectory() }
        } catch {
            unlink(temporary)
            unlink(final)
            throw error
        }
        return name
    }

    /// Stores several images off the cooperative thread pool (fsync blocks); all or nothing.
    func storeAll(_ images: [(bytes: [UInt8], fileExtension: String)]) async throws -> [String] {
        // A thread of its own per call, so uploads write in parallel and the pool stays free.
        try await BlockingThread(linger: 0).run {
            var names: [String] = []
            do {
                for image in images { names.append(try store(image.bytes, fileExtension: image.fileExtension)) }
                return names
            } catch {
                remove(names)
                throw error
            }
        }
    }

    /// Deletes files (after the rows naming them are gone, or when their row never committed).
    func remove(_ names: [String]) {
        for name in names {
            if let path = path(of: name) { unlink(path) }
        }
    }

    /// Deletes every file no stored image names, and temporary files a crash left behind.
    func removeOrphans(keeping names: Set<String>) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for entry in entries where !names.contains(entry) {
            if entry.hasPrefix(Self.temporaryPrefix) || Self.isGeneratedName(entry) {
                unlink(root.appendingPathComponent(entry).path)
            }
        }
    }

    /// Flushes every file written with `durable: false` (and the folder) to disk.
    func syncEverything() throws {
        sync()
        try syncDirectory()
    }

    private func writeFile(_ bytes: [UInt8], to path: String, sync: Bool) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXFailure("open", errno) }
        defer { close(descriptor) }
        if let code = FileOutput.writeAll(descriptor, bytes) { throw POSIXFailure("write", code) }
        guard !sync || fsync(descriptor) == 0 else { throw POSIXFailure("fsync", errno) }
    }

    private func syncDirectory() throws {
        let descriptor = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXFailure("open directory", errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw POSIXFailure("fsync directory", errno) }
    }

    /// 32 lowercase hex digits, a dot, and the extension of an `ImageFormat`.
    static func isGeneratedName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 32,
              parts[0].utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return false }
        return ImageFormat.allCases.contains { $0.fileExtension == parts[1] }
    }
}

/// A failed system call, named so the error says which step failed.
struct POSIXFailure: Error, CustomStringConvertible {
    var call: String
    var code: Int32
    init(_ call: String, _ code: Int32) {
        self.call = call
        self.code = code
    }
    var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}
