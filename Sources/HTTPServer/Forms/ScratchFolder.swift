import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One process's private folder for upload files (spooled multipart parts, staged images)
/// under a shared parent such as `DATA/uploads`.
///
/// A process that is killed cannot clean up after itself, so the next one does: each folder
/// `<parent>/<id>/` has a lock file `<parent>/<id>.lock` that its process holds with `flock` for
/// as long as it lives. The kernel drops the lock when the process dies, however it dies, so a
/// lock that can be taken marks a folder nobody owns; `claim` removes those before making its own.
/// Processes sharing a parent (the panel and its embedded sandbox, or two servers) never remove
/// each other's live folders. The lock file is created and locked before the folder exists, so a
/// folder without a lock file is always left over from a dead process.
public final class ScratchFolder: Sendable {
    /// The folder itself (mode 0700); empty when claimed.
    public let url: URL
    private let lockPath: String
    private let lockDescriptor: Int32

    private init(url: URL, lockPath: String, lockDescriptor: Int32) {
        self.url = url
        self.lockPath = lockPath
        self.lockDescriptor = lockDescriptor
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Sweeps what dead processes left in `parent`, then makes and locks a new folder there.
    public static func claim(in parent: URL) throws -> ScratchFolder {
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure(description: "cannot create the uploads folder \(parent.path): \(error.localizedDescription)")
        }
        sweep(parent)
        for _ in 0..<8 {
            let id = "\(getpid())-\(randomHex())"
            let lockPath = parent.appendingPathComponent("\(id).lock").path
            let fd = open(lockPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd < 0 && errno == EEXIST { continue }
            guard fd >= 0 else { throw Failure(description: "cannot create \(lockPath): \(String(cString: strerror(errno)))") }
            // Between creating and locking the file, another process's sweep may have taken it for
            // a dead one's and unlinked it: keep it only if the path still names the locked file.
            guard flock(fd, LOCK_EX | LOCK_NB) == 0, isSameFile(fd, lockPath) else {
                close(fd)
                continue
            }
            let url = parent.appendingPathComponent(id, isDirectory: true)
            guard mkdir(url.path, 0o700) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(lockPath)
                close(fd)
                throw Failure(description: "cannot create \(url.path): \(reason)")
            }
            return ScratchFolder(url: url, lockPath: lockPath, lockDescriptor: fd)
        }
        throw Failure(description: "cannot claim a folder in \(parent.path)")
    }

    /// A subfolder (created if missing), e.g. `spool` or `staging`.
    public func subfolder(_ name: String) throws -> URL {
        let folder = url.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// Removes the folder and its lock (at a clean shutdown). Safe to call twice.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
        unlink(lockPath)
    }

    deinit {
        close(lockDescriptor)
    }

    /// Removes every folder and lock file in `parent` whose owner is gone.
    static func sweep(_ parent: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        let lockSuffix = ".lock"
        var ids = Set<String>()
        for name in names {
            ids.insert(name.hasSuffix(lockSuffix) ? String(name.dropLast(lockSuffix.count)) : name)
        }
        for id in ids {
            let folder = parent.appendingPathComponent(id).path
            let lockPath = folder + lockSuffix
            let fd = open(lockPath, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            if fd < 0 {
                // No lock file: a folder left from a dead process (or a stray file); remove it.
                if errno == ENOENT { try? FileManager.default.removeItem(atPath: folder) }
                continue
            }
            defer { close(fd) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }   // its process is alive
            try? FileManager.default.removeItem(atPath: folder)
            unlink(lockPath)
        }
    }

    private static func isSameFile(_ fd: Int32, _ path: String) -> Bool {
        var open = stat(), named = stat()
        guard fstat(fd, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    private static func randomHex() -> String {
        String(UInt64.random(in: .min ... .max), radix: 16)
    }
}
