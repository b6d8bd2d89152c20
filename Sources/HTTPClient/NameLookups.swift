import Foundation
import NetworkIO

/// Name lookups run side by side, each on a thread of its own, at most `limit` at once: a slow
/// DNS answer for one host never holds up another's, and a flood of names cannot start a
/// thread each. A caller whose deadline passes gets nothing back at once; its lookup finishes
/// (getaddrinfo cannot be interrupted) and only then frees its place.
public final class NameLookups: Sendable {
    /// The process's lookups (the API, media origins and import photos share it).
    public static let shared = NameLookups(limit: 8)

    private let limit: Int
    private let state = Locked<(running: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

    public init(limit: Int) { self.limit = max(1, limit) }

    /// Every address of `host` (none when it has none, or when `deadline` passed first, whether
    /// waiting for a place or for the lookup).
    public func resolve(host: String, port: Int, deadline: UInt64) async -> [ClientAddress] {
        // An address literal needs no lookup, so it never waits behind slow names for a place.
        let literal = ClientAddress.literal(host: host, port: port)
        if !literal.isEmpty { return literal }
        return await withCheckedContinuation { continuation in
            let answer = OneAnswer(continuation)
            let wait = deadline > monotonicNanos() ? deadline - monotonicNanos() : 0
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(min(wait, UInt64(Int.max))))) {
                answer.give([])
            }
            Task {
                await acquire()
                guard !answer.isGiven else { return release() }   // nobody waits for it any more
                Thread.detachNewThread { [self] in
                    let found = ClientAddress.resolveAll(host: host, port: port)
                    release()
                    answer.give(found)
                }
            }
        }
    }

    private func acquire() async {
        let admitted = state.withLock { state -> Bool in
            guard state.running < limit else { return false }
            state.running += 1
            return true
        }
        if admitted { return }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                // A place may have been freed between the two locks.
                guard state.running < limit else { state.waiting.append(continuation); return false }
                state.running += 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    /// Frees a place, or hands it straight to the longest waiter.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

/// A continuation resumed by whichever answer comes first (the lookup or the deadline).
private final class OneAnswer<T: Sendable>: Sendable {
    private let continuation: Locked<CheckedContinuation<T, Never>?>

    init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = Locked(continuation) }

    var isGiven: Bool { continuation.withLock { $0 == nil } }

    func give(_ value: T) {
        let waiting = continuation.withLock { slot in
            defer { slot = nil }
            return slot
        }
        waiting?.resume(returning: value)
    }
}
