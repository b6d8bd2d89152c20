import Foundation

/// An image the panel fetched from the API host, ready to send again.
struct CachedMedia: Sendable {
    var data: Data
    var contentType: String
    var etag: String
}

/// In-memory cache of product images with a byte bound; the least recently used entries go
/// first. Entries larger than a quarter of the bound are not kept (they would evict everything).
actor MediaCache {
    private struct Entry { var media: CachedMedia; var lastUse: UInt64 }
    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0
    private(set) var totalBytes = 0
    let maxBytes: Int

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    func get(_ key: String) -> CachedMedia? {
        guard var entry = entries[key] else { return nil }
        clock += 1
        entry.lastUse = clock
        entries[key] = entry
        return entry.media
    }

    func put(_ key: String, _ media: CachedMedia) {
        guard media.data.count <= maxBytes / 4 else { return }
        if let old = entries.removeValue(forKey: key) { totalBytes -= old.media.data.count }
        clock += 1
        entries[key] = Entry(media: media, lastUse: clock)
        totalBytes += media.data.count
        while totalBytes > maxBytes, let victim = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[victim.key] = nil
            totalBytes -= victim.value.media.data.count
        }
    }

    var count: Int { entries.count }
}
