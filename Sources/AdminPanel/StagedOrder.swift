/// The order of the images kept after an error lives in the form (`staged_order`, one hidden
/// input per image, in order), so the seller's ←/→ choices survive every round trip without
/// touching the staging store. The first image is the thumbnail.
enum StagedOrder {
    /// `images` in the form's order; images the form does not list (just added) go last in the
    /// order they were staged. `move` is a no-JS order button: "ID:earlier" or "ID:later".
    static func apply(_ images: [StagedImage], order: [Int], move: String?) -> [StagedImage] {
        var rank: [Int: Int] = [:]
        for (index, id) in order.enumerated() where rank[id] == nil { rank[id] = index }
        var result = images.enumerated().sorted { a, b in
            (rank[a.element.id] ?? order.count + a.offset, a.offset) < (rank[b.element.id] ?? order.count + b.offset, b.offset)
        }.map(\.element)
        if let move, let (id, step) = parse(move), let from = result.firstIndex(where: { $0.id == id }) {
            let to = from + step
            if result.indices.contains(to) { result.swapAt(from, to) }
        }
        return result
    }

    private static func parse(_ move: String) -> (id: Int, step: Int)? {
        let parts = move.split(separator: ":")
        guard parts.count == 2, let id = Int(parts[0]) else { return nil }
        switch parts[1] {
        case "earlier": return (id, -1)
        case "later": return (id, 1)
        default: return nil
        }
    }
}
