import Foundation

/// The `Date` header value (IMF-fixdate), formatted at most once per second per loop.
final class HTTPDateCache {
    private(set) var second: time_t = 0
    private var cached = ""
    private var cachedBytes: [UInt8] = []

    func current() -> String {
        refresh()
        return cached
    }

    /// The same value as bytes, for precomputed heads.
    func currentBytes() -> [UInt8] {
        refresh()
        return cachedBytes
    }

    private func refresh() {
        let now = time(nil)
        guard now != second else { return }
        second = now
        cachedBytes = Self.imfFixdate(now)
        cached = String(decoding: cachedBytes, as: UTF8.self)
    }

    /// `seconds` since 1970 as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), e.g. a file's
    /// `Last-Modified`.
    static func imfFixdate(_ seconds: time_t) -> [UInt8] {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return buffer[0..<n].map { UInt8(bitPattern: $0) }
    }
}
