import Foundation

/// Serves files from a root folder for GET and HEAD, with strong ETags, 304 answers and
/// Cache-Control. Nothing outside the root can be reached: the path is decoded once (by the
/// router), encoded slashes, dots and backslashes are refused outright, `..`, `.`, hidden
/// names, backslash and NUL are refused, and the resolved real path must lie inside the root.
/// There is no directory listing.
public struct StaticFiles: Sendable {
    private let root: String
    private let cacheControl: String
    private let cache: StaticFileCache

    /// Throws when `root` is not an existing directory.
    public init(root: URL, cacheControl: String = "public, max-age=3600") throws {
        guard let resolved = Self.realPath(root.path), Self.isDirectory(resolved) else {
            throw HTTPError(status: 500, message: "Static root is not a directory")
        }
        self.root = resolved
        self.cacheControl = cacheControl
        self.cache = StaticFileCache()
    }

    /// `relativePath` is the already-decoded rest of the URL path (e.g. a `{path...}` parameter).
    public func response(for relativePath: String, request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse.text("Method Not Allowed\n", status: 405)
            response.headers["Allow"] = "GET, HEAD"
            return response
        }
        guard Self.isSafe(relativePath: relativePath, rawTarget: request.target),
              let file = resolve(relativePath) else {
            return .text("Not Found\n", status: 404)
        }
        if let candidates = request.headers["If-None-Match"], EntityTag.matches(ifNoneMatch: candidates, etag: file.etag) {
            return HTTPResponse(status: 304, headers: headers(for: file, relativePath: relativePath, notModified: true))
        }
        return HTTPResponse(status: 200, headers: headers(for: file, relativePath: relativePath, notModified: false),
                            body: file.data.map { .data($0) } ?? .file(path: file.path))
    }

    /// The headers of a 200 or 304 answer for `file`, in the order they go out. Shared with the
    /// synchronous route (`StaticRoute`), which precomputes them: both paths send the same bytes.
    func headers(for file: ResolvedFile, relativePath: String, notModified: Bool) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers["ETag"] = file.etag
        // Computed with the head, which the synchronous route precomputes per file stamp.
        headers["Last-Modified"] = String(decoding: HTTPDateCache.imfFixdate(time_t(file.stamp.mtimeNanos / 1_000_000_000)),
                                          as: UTF8.self)
        headers["Cache-Control"] = cacheControl
        if notModified { return headers }
        headers["Content-Type"] = MediaTypes.forExtension(Self.pathExtension(relativePath))
        headers["X-Content-Type-Options"] = "nosniff"
        return headers
    }

    /// Refuses every spelling that could step out of the root or name something hidden:
    /// encoded `/`, `.`, `\` or NUL in the raw path; then, in the decoded path, backslash, NUL,
    /// empty segments and segments starting with a dot (which covers `.`, `..` and `.env`).
    static func isSafe(relativePath: String, rawTarget: String) -> Bool {
        let raw = Array(rawTarget.utf8.prefix { $0 != UInt8(ascii: "?") })
        var i = 0
        while i + 2 < raw.count {
            if raw[i] == ASCII.percent {
                let escape = (ASCII.hexValue(raw[i + 1]) ?? -1) * 16 + (ASCII.hexValue(raw[i + 2]) ?? -256)
                if escape == 0x2F || escape == 0x2E || escape == 0x5C || escape == 0 { return false }
            }
            i += 1
        }
        var segmentStart = true
        for b in relativePath.utf8 {
            if b == UInt8(ascii: "\\") || b == 0 { return false }
            if segmentStart && (b == UInt8(ascii: ".") || b == UInt8(ascii: "/")) { return false }
            segmentStart = b == UInt8(ascii: "/")
        }
        return !relativePath.isEmpty && !segmentStart
    }

    static func pathExtension(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
        return String(path[path.index(after: dot)...])
    }

    struct ResolvedFile {
        var path: String
        var etag: String
        var data: Data?
        /// The stamp the ETag was computed for (re-checked by the synchronous route).
        var stamp: FileStamp
    }

    func resolve(_ relativePath: String) -> ResolvedFile? {
        // A path resolved before is only re-checked with one stat of its real path: realpath
        // costs a readlink per component and would dominate small-file serving.
        if let real = cache.realPath(for: relativePath) {
            var info = stat()
            if stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
               let cached = cache.lookup(real, stamp: FileStamp(info)) {
                return ResolvedFile(path: real, etag: cached.etag, data: cached.data, stamp: cached.stamp)
            }
        }
        guard let real = Self.realPath(root + "/" + relativePath), real.hasPrefix(root + "/") else { return nil }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let stamp = FileStamp(info)
        cache.remember(relativePath, realPath: real)
        if let cached = cache.lookup(real, stamp: stamp) {
            return ResolvedFile(path: real, etag: cached.etag, data: cached.data, stamp: stamp)
        }
        if stamp.size <= StaticFileCache.maxFileBytes, let data = FileManager.default.contents(atPath: real),
           data.count == stamp.size {
            let etag = EntityTag.of(data)
            cache.store(real, stamp: stamp, etag: etag, data: data)
            return ResolvedFile(path: real, etag: etag, data: data, stamp: stamp)
        }
        let etag = "\"\(String(stamp.size, radix: 16))-\(String(stamp.mtimeNanos, radix: 16))-\(String(stamp.inode, radix: 16))\""
        return ResolvedFile(path: real, etag: etag, data: nil, stamp: stamp)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}

/// What identifies a version of a file on disk.
struct FileStamp: Equatable, Sendable {
    var size: Int
    var mtimeNanos: Int
    var inode: UInt64

    init(_ info: stat) {
        size = Int(info.st_size)
        mtimeNanos = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
        inode = UInt64(info.st_ino)
    }
}

/// Small files kept in memory with a content-hash ETag, re-read when their stamp changes.
final class StaticFileCache: Sendable {
    static let maxFileBytes = 1024 * 1024
    static let maxTotalBytes = 32 * 1024 * 1024

    struct Entry: Sendable {
        var stamp: FileStamp
        var etag: String
        var data: Data
    }

    private let entries = Locked<[String: Entry]>([:])
    /// Relative URL path → real path, for paths checked to lie inside the root.
    private let realPaths = Locked<[String: String]>([:])

    func realPath(for relativePath: String) -> String? { realPaths.withLock { $0[relativePath] } }

    func remember(_ relativePath: String, realPath: String) {
        realPaths.withLock { paths in
            if paths.count >= 10_000 { paths.removeAll() }   // bounded: URLs are client-chosen
            paths[relativePath] = realPath
        }
    }

    func lookup(_ path: String, stamp: FileStamp) -> Entry? {
        entries.withLock { $0[path] }.flatMap { $0.stamp == stamp ? $0 : nil }
    }

    func store(_ path: String, stamp: FileStamp, etag: String, data: Data) {
        entries.withLock { entries in
            let total = entries.values.reduce(0) { $0 + $1.data.count }
            guard total + data.count <= Self.maxTotalBytes || entries[path] != nil else { return }
            entries[path] = Entry(stamp: stamp, etag: etag, data: data)
        }
    }
}
