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
        var now = time(nil)
        guard now != second else { return }
        second = now
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        cachedBytes = buffer[0..<n].map { UInt8(bitPattern: $0) }
        cached = String(decoding: cachedBytes, as: UTF8.self)
    }
}
