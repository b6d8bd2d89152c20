// Compiled at -O together with Sources/AdminPanel/Upstream/BoundedConcurrency.swift by
// scripts/test: every result must come back under its own index, with the shapes the panel's
// batches use (a throwing read caught inside the call, a large non-trivial result, an optional).
import Glibc

struct Detail: Sendable { var id: Int; var name: String; var description: String; var images: [String]; var price: Double }

struct ReadFailed: Error {}

@inline(never) func read(_ id: Int) async throws -> Detail {
    await Task.yield()
    if id % 7 == 3 { throw ReadFailed() }
    return Detail(id: id, name: "n\(id)", description: String(repeating: "d", count: id), images: ["\(id)"], price: Double(id))
}

@main struct BoundedConcurrencyRelease {
    static func main() async {
        let ids = Array(1...50)
        let details = await BoundedConcurrency.map(ids, limit: 4) { id -> Detail? in
            do { return try await read(id) } catch { return nil }
        }
        var wrong = 0
        for (id, detail) in zip(ids, details) where (detail?.id ?? id) != id || (detail == nil) != (id % 7 == 3) {
            wrong += 1
        }
        var finished: [Int] = []
        let tagged = await BoundedConcurrency.map(ids, limit: 3, whenDone: { finished.append($0.0) }) { id in
            (id, try? await read(id))
        }
        if tagged.map(\.0) != ids || finished.sorted() != ids { wrong += 1 }
        print(wrong == 0 ? "ok" : "wrong: \(wrong)")
        if wrong != 0 { exit(1) }
    }
}
