import Foundation

/// One try of a delete password (the vendor password, or v1's product password, which a v1 edit
/// and a v1 revert send too), counted per person and panel-wide (`PanelApp.deleteGate`).
///
/// The slot is reserved *before* the password goes to the API, so parallel tries cannot pass
/// the limit; then exactly one of two things happens: `release()` (the password was right, or
/// the check never ran: the try does not count) or `commitWrongPassword()` (it counts, and
/// answers what the form shows next). Single delete, bulk delete, the v1 edit and the v1 revert
/// all go through this type, so that rule is written once.
struct DeleteAttempt: Sendable {
    private let gate: AttemptGate
    private let ticket: AttemptGate.Ticket
    let person: String

    /// The key of the panel-wide limit (person names cannot contain `*`).
    static let panelWide = "*"

    /// What is left after a wrong password: more tries, or none before a wait of this many
    /// seconds. Either way the password *was* checked, so the answer says it was wrong (422);
    /// only a try refused before the check (`reserve` failing) answers 429.
    enum Left: Sendable, Equatable {
        case tries(Int)
        case paused(TimeInterval)
    }

    /// A slot for `person`'s try, or how long they must wait (nothing is reserved then).
    static func reserve(_ person: String, in gate: AttemptGate) async -> Result<DeleteAttempt, AttemptGate.Wait> {
        switch await gate.reserve(person, Self.panelWide) {
        case .success(let ticket): return .success(DeleteAttempt(gate: gate, ticket: ticket, person: person))
        case .failure(let wait): return .failure(wait)
        }
    }

    /// How long `person` must wait before a try, without reserving (a locked form).
    static func wait(for person: String, in gate: AttemptGate) async -> TimeInterval? {
        await gate.retryAfter(person, Self.panelWide)
    }

    /// The password was right, or the API never checked it: the try does not count.
    func release() async {
        await gate.release(ticket)
    }

    /// The password was wrong: the try keeps its slot. Answers the tries left, or the wait when none
    /// are (tries checked at the same time may all find none left: each still learns it was wrong).
    @discardableResult
    func commitWrongPassword() async -> Left {
        let remaining = await gate.remaining(person, Self.panelWide)
        if remaining == 0, let wait = await gate.retryAfter(person, Self.panelWide) { return .paused(wait) }
        return .tries(remaining)
    }
}
