import NetworkIO

/// The open sales' states that every list page marks its rows with, kept between two changes of
/// the `sales` table so a page needs no query (and no hand-off to the database's thread) for them.
///
/// `SaleStore` is the table's only writer and moves `generation` on after each write. A read
/// keeps its answer only when no write ended while it ran: an answer read before a write landed
/// can never be kept after it.
final class OpenSaleStates: Sendable {
    private let state = Locked<(generation: Int, kept: (generation: Int, states: [Int: Sale.State])?)>((0, nil))

    /// The kept states, or the generation a read should name when it hands its answer to `keep`.
    func lookup() -> (states: [Int: Sale.State]?, generation: Int) {
        state.withLock { state in
            guard let kept = state.kept, kept.generation == state.generation else { return (nil, state.generation) }
            return (kept.states, state.generation)
        }
    }

    func keep(_ states: [Int: Sale.State], readAt generation: Int) {
        state.withLock { state in
            if state.generation == generation { state.kept = (generation, states) }
        }
    }

    /// The table changed (or may have: a write that threw): the next page reads it again.
    func changed() {
        state.withLock { state in
            state.generation += 1
            state.kept = nil
        }
    }
}
