import Foundation
import Testing
@testable import AdminPanel

/// The delete gate's one rule: a slot is reserved before the password goes out, and only a
/// wrong password keeps it.
@Suite struct DeleteAttemptTests {
    @Test func onlyAWrongPasswordCountsAndTheLastOneLocks() async {
        let gate = AttemptGate(first: ReservingLimiter(limit: 2, window: 600), second: ReservingLimiter(limit: 20, window: 600),
                               now: { Date() })
        // A right password (or a failure before the check) gives its slot back, however often.
        for _ in 0..<5 {
            guard case .success(let attempt) = await DeleteAttempt.reserve("mina", in: gate) else { Issue.record("refused"); return }
            await attempt.release()
        }
        #expect(await DeleteAttempt.wait(for: "mina", in: gate) == nil)
        // Two tries in flight at once take both slots: a third waits.
        guard case .success(let first) = await DeleteAttempt.reserve("mina", in: gate),
              case .success(let second) = await DeleteAttempt.reserve("mina", in: gate) else { Issue.record("refused"); return }
        if case .success = await DeleteAttempt.reserve("mina", in: gate) { Issue.record("a third try passed the limit") }
        // A wrong password keeps its slot: one try left, then none.
        await second.release()
        #expect(await first.commitWrongPassword() == .tries(1))
        guard case .success(let last) = await DeleteAttempt.reserve("mina", in: gate) else { Issue.record("refused"); return }
        guard case .paused(let wait) = await last.commitWrongPassword() else { Issue.record("not paused"); return }
        #expect(wait > 0 && wait <= 600)
        #expect(await DeleteAttempt.wait(for: "mina", in: gate) != nil)
        // Someone else is not locked out by mina's tries.
        #expect(await DeleteAttempt.wait(for: "jun", in: gate) == nil)
    }
}
