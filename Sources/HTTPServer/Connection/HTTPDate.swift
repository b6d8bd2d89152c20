import Foundation

/// The `Date` header value (IMF-fixdate), formatted at most once per second per loop.
final class HTTPDateCache {
    private var second: time_t = 0
    private var cached = ""

    func current() -> String {
        var now = time(nil)
        if now != second {
            second = now
            var parts = tm()
            gmtime_r(&now, &parts)
            var buffer = [CChar](repeating: 0, count: 64)
            let n = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
            cached = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return cached
    }
}
