import Foundation
import HTTPServer

/// Remembers the answers of read endpoints until the next committed write.
///
/// Each entry is tagged with the store's write generation read *before* its query ran; a lookup
/// only hits when the generation is still the same, so no write can be hidden by the cache
/// (at worst a fresh answer is stored under an older generation and is simply never used).
final class ResponseCache: Sendable {
    private struct Entry {
        var generation: Int
        var status: Int
        var body: Data
    }

    private let state = Locked<(entries: [String: Entry], bodyBytes: Int)>(([:], 0))
    private let capacity: Int
    /// Keys hold the whole request target and Host header, so a client can make them vary at
    /// will; bounding the bytes (not just the count) keeps that from growing memory (a v2b page
    /// of 100 products with long descriptions is over 100 KB).
    private let maxBodyBytes: Int

    init(capacity: Int = 512, maxBodyBytes: Int = 8 * 1024 * 1024) {
        self.capacity = capacity
        self.maxBodyBytes = maxBodyBytes
    }

    /// The body bytes held now.
    var storedBytes: Int { state.withLock { $0.bodyBytes } }

    func response(for key: String, generation: Int) -> HTTPResponse? {
        state.withLock { state in
            guard let entry = state.entries[key], entry.generation == generation else { return nil }
            return entry.status == 204 ? HTTPResponse(status: 204) : HTTPResponse.json(entry.body, status: entry.status)
        }
    }

    func store(_ response: HTTPResponse, for key: String, generation: Int) {
        guard case .data(let body) = response.body else {
            if response.status == 204 { store(status: 204, body: Data(), key: key, generation: generation) }
            return
        }
        store(status: response.status, body: body, key: key, generation: generation)
    }

    private func store(status: Int, body: Data, key: String, generation: Int) {
        guard body.count <= maxBodyBytes else { return }
        state.withLock { state in
            if let replaced = state.entries.removeValue(forKey: key) { state.bodyBytes -= replaced.body.count }
            // Simple bound: when full, start over (entries are cheap to recompute).
            if state.entries.count >= capacity || state.bodyBytes + body.count > maxBodyBytes {
                state.entries.removeAll(keepingCapacity: true)
                state.bodyBytes = 0
            }
            state.entries[key] = Entry(generation: generation, status: status, body: body)
            state.bodyBytes += body.count
        }
    }
}
