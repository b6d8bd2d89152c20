import Foundation
import HTTPServer

/// Remembers the answers of read endpoints until the next committed write.
///
/// Each entry is tagged with the store's write generation read *before* its query ran; a lookup
/// only hits when the generation is still the same, so no write can be hidden by the cache
/// (at worst a fresh answer is stored under an older generation and is simply never used).
final class ResponseCache: @unchecked Sendable {
    private struct Entry {
        var generation: Int
        var status: Int
        var body: Data
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private let capacity: Int

    init(capacity: Int = 512) { self.capacity = capacity }

    func response(for key: String, generation: Int) -> HTTPResponse? {
        lock.withLock {
            guard let entry = entries[key], entry.generation == generation else { return nil }
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
        lock.withLock {
            // Simple bound: when full, start over (entries are cheap to recompute).
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(generation: generation, status: status, body: body)
        }
    }
}
