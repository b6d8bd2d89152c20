import Foundation
import NetworkIO
#if canImport(Glibc)
import Glibc
#endif

/// Writes a folder of files so that, once `commit` returns, a power cut or `kill -9` cannot lose
/// them: each file is written and fsynced, then the folder, then the folder is moved into place
/// under its final name and the parent is fsynced. A folder under construction has a name
/// starting with `.incoming-`, so a crash leaves only such a folder, which a sweep removes.
/// Blocking calls: run on a thread of its own (see `SafetyFiles`).
enum DurableFolder {
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var code: Int32
        var description: String { "\(operation): \(String(cString: strerror(code)))" }
        /// Out of space or quota: the seller can do something about it.
        var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }
    }

    /// Creates `parent/final` from `files` (name → bytes). An existing folder of that name is
    /// replaced only after the new one is complete.
    static func commit(_ files: [(name: String, data: Data)], in parent: URL, as final: String) throws {
        try makePrivateFolder(parent)
        let incoming = parent.appendingPathComponent(".incoming-\(final)-\(SecureToken.make(byteCount: 6))")
        try makePrivateFolder(incoming)
        do {
            for file in files { try write(file.data, to: incoming.appendingPathComponent(file.name).path) }
            try sync(folder: incoming.path)
            let target = parent.appendingPathComponent(final)
            if FileManager.default.fileExists(atPath: target.path) { try? FileManager.default.removeItem(at: target) }
            guard rename(incoming.path, target.path) == 0 else { throw Failure(operation: "rename", code: errno) }
            try sync(folder: parent.path)
        } catch {
            try? FileManager.default.removeItem(at: incoming)
            throw error
        }
    }

    /// Writes all of `data` to a new private file and fsyncs it.
    static func write(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(operation: "open", code: errno) }
        defer { close(descriptor) }
        if let code = FileOutput.writeAll(descriptor, data) { throw Failure(operation: "write", code: code) }
        guard fsync(descriptor) == 0 else { throw Failure(operation: "fsync", code: errno) }
    }

    static func sync(folder path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(operation: "open folder", code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure(operation: "fsync folder", code: errno) }
    }

    static func makePrivateFolder(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure(operation: "create folder", code: (error as NSError).code == NSFileWriteOutOfSpaceError ? ENOSPC : EACCES)
        }
    }
}
