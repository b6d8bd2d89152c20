import Foundation

/// A response head serialized once, with a hole for the Date and the connection's ending.
///
/// Made by `ResponseHead.serialize` itself (with an empty Date, keep-alive, HTTP/1.1) and cut
/// around the Date and before the final blank line, so the bytes sent are exactly those the
/// ordinary path would send for the same headers.
struct PrecomputedHead {
    /// `HTTP/1.1 200 OK\r\nDate: `
    let beforeDate: [UInt8]
    /// From the CRLF after the Date to the last header line, without the final CRLF CRLF.
    let afterDate: [UInt8]

    init(status: Int, headers: HTTPHeaders, length: Int) {
        let whole = ResponseHead.serialize(status: status, headers: headers, length: .known(length), keepAlive: true,
                                           version: "HTTP/1.1", date: "")
        let dateField = Array("\r\nDate: ".utf8)
        var cut = 0
        while !whole[cut..<(cut + dateField.count)].elementsEqual(dateField) { cut += 1 }
        beforeDate = Array(whole[..<(cut + dateField.count)])
        afterDate = Array(whole[(cut + dateField.count)..<(whole.count - 4)])
    }

    private static let closeEnding = Array("\r\nConnection: close\r\n\r\n".utf8)
    private static let keepAliveEnding10 = Array("\r\nConnection: keep-alive\r\n\r\n".utf8)
    private static let ending = Array("\r\n\r\n".utf8)

    /// The head as `ResponseHead.serialize` would write it for this connection.
    func write(date: [UInt8], keepAlive: Bool, version: String, into writer: inout ResponseWriter) {
        writer.append(beforeDate)
        writer.append(date)
        writer.append(afterDate)
        if !keepAlive {
            writer.append(Self.closeEnding)
        } else if version == "HTTP/1.0" {
            writer.append(Self.keepAliveEnding10)
        } else {
            writer.append(Self.ending)
        }
    }
}

/// One file's answers on one event loop.
final class StaticHead {
    let file: StaticFiles.ResolvedFile
    /// The second (`time`) of the last `stat` that found the file unchanged.
    var checkedAt: time_t
    let ok: PrecomputedHead
    let notModified: PrecomputedHead

    init(file: StaticFiles.ResolvedFile, relativePath: String, route: StaticRoute, now: time_t) {
        self.file = file
        checkedAt = now
        var okResponse = HTTPResponse(status: 200, headers: route.files.headers(for: file, relativePath: relativePath,
                                                                                  notModified: false))
        route.decorate(&okResponse)
        ok = PrecomputedHead(status: 200, headers: okResponse.headers, length: file.stamp.size)
        var notModifiedResponse = HTTPResponse(status: 304, headers: route.files.headers(for: file, relativePath: relativePath,
                                                                                          notModified: true))
        route.decorate(&notModifiedResponse)
        notModified = PrecomputedHead(status: 304, headers: notModifiedResponse.headers, length: 0)
    }
}

/// The precomputed heads of one static route on one loop, keyed by the path under the prefix.
/// Loop-local, so no lock: each loop keeps its own (the file bytes are shared through
/// `StaticFileCache`). Like nginx's `open_file_cache`, a file is re-checked with one `stat`
/// at most once per second, so a change on disk shows within a second.
final class StaticHeadCache {
    /// Paths are client-chosen but only existing files get in; bounded anyway.
    static let maxEntries = 4096
    private var heads: [String: StaticHead] = [:]

    /// The file's heads, re-checked or rebuilt as needed; nil when the path names no servable
    /// file (the ordinary route then answers).
    func head(for relativePath: String, route: StaticRoute, now: time_t) -> StaticHead? {
        if let head = heads[relativePath] {
            if head.checkedAt == now { return head }
            var info = stat()
            if stat(head.file.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, FileStamp(info) == head.file.stamp {
                head.checkedAt = now
                return head
            }
            heads[relativePath] = nil
        }
        guard let file = route.files.resolve(relativePath) else { return nil }
        if heads.count >= Self.maxEntries { heads.removeAll() }
        let head = StaticHead(file: file, relativePath: relativePath, route: route, now: now)
        heads[relativePath] = head
        return head
    }
}
