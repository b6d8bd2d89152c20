import Foundation

/// An image the panel fetched from the API host, ready to send again.
struct CachedMedia: Sendable {
    var data: Data
    var contentType: String
    var etag: String
}

/// In-memory cache of product images with a byte bound; the least recently used entries go
/// first. Entries larger than a quarter of the bound are not kept (they would evict everything).
/// Each entry counts with its key, ETag and bookkeeping, not just its image bytes: with tiny
/// images (a 70-byte PNG costs about 400 bytes of memory) the bound would otherwise hold several
/// times its size, and the soak's RSS kept climbing with every new product's thumbnail.
actor MediaCache {
    /// Memory an entry takes besides the strings and bytes counted: the dictionary slot, the
    /// entry, and the heap headers of its key, data and ETag (measured roughly: ~250 bytes).
    static let entryOverhead = 256

    private struct Entry { var media: CachedMedia; var lastUse: UInt64 }
    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0
    /// What the entries count against `maxBytes` (see `cost`).
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
        if let old = entries.removeValue(forKey: key) { totalBytes -= Self.cost(key, old.media) }
        clock += 1
        entries[key] = Entry(media: media, lastUse: clock)
        totalBytes += Self.cost(key, media)
        while totalBytes > maxBytes, let victim = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[victim.key] = nil
            totalBytes -= Self.cost(victim.key, victim.value.media)
        }
    }

    func remove(_ keys: [String]) {
        for key in keys {
            if let old = entries.removeValue(forKey: key) { totalBytes -= Self.cost(key, old.media) }
        }
    }

    /// What an entry counts against the bound.
    static func cost(_ key: String, _ media: CachedMedia) -> Int {
        media.data.count + key.utf8.count + media.etag.utf8.count + media.contentType.utf8.count + entryOverhead
    }

    var count: Int { entries.count }
}
