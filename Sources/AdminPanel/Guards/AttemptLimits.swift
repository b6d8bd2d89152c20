import Foundation
import OpenMarketCore

/// At most `limit` attempts per key within a sliding `window`, where an attempt takes its slot
/// *before* it is checked (a reservation) and gives it back if it turns out not to count (a
/// right password). So concurrent attempts cannot overshoot: the 6th of 30 simultaneous tries
/// finds five slots taken, whatever their outcome will be.
///
/// A value type; `AttemptGate` keeps it in an actor. The number of keys is bounded: when full,
/// expired keys are dropped, then the least recently used ones — keys still under their limit
/// first, locked keys only when every key is locked — so a flood of made-up names can never
/// make a newcomer (with a right password) wait, and a locked name stays locked while any
/// other key can make room.
struct ReservingLimiter: Sendable {
    let limit: Int
    let window: TimeInterval
    let maxKeys: Int
    private var slots: [String: [(id: Int, time: Date)]] = [:]

    init(limit: Int, window: TimeInterval, maxKeys: Int = 10_000) {
        self.limit = limit
        self.window = window
        self.maxKeys = maxKeys
    }

    /// Seconds until `key` has a free slot; nil when it has one now.
    func retryAfter(_ key: String, now: Date) -> TimeInterval? {
        let live = (slots[key] ?? []).filter { now.timeIntervalSince($0.time) < window }
        guard live.count >= limit else { return nil }
        let oldest = live.map(\.time).min() ?? now
        return max(1, window - now.timeIntervalSince(oldest))
    }

    /// Takes a slot for `key` (the caller checked `retryAfter` first, in the same actor turn).
    mutating func take(_ key: String, id: Int, now: Date) {
        if slots[key] == nil, slots.count >= maxKeys { makeRoom(now: now) }
        var live = (slots[key] ?? []).filter { now.timeIntervalSince($0.time) < window }
        live.append((id, now))
        slots[key] = live
    }

    mutating func giveBack(_ key: String, id: Int) {
        slots[key]?.removeAll { $0.id == id }
        if slots[key]?.isEmpty == true { slots[key] = nil }
    }

    func remaining(_ key: String, now: Date) -> Int {
        max(0, limit - (slots[key] ?? []).filter { now.timeIntervalSince($0.time) < window }.count)
    }

    /// Drops expired keys, then the oldest (by last attempt), unlocked before locked, making
    /// room for a tenth of the table at once so a flood does not sort the table at every attempt.
    private mutating func makeRoom(now: Date) {
        slots = slots.filter { entry in entry.value.contains { now.timeIntervalSince($0.time) < window } }
        guard slots.count >= maxKeys else { return }
        let excess = slots.count - maxKeys + max(1, maxKeys / 10)
        let byAge = slots.map { key, entries in
            (key: key, locked: entries.count >= limit, last: entries.map(\.time).max() ?? now)
        }.sorted { a, b in a.locked != b.locked ? !a.locked : a.last < b.last }
        for victim in byAge.prefix(excess) { slots[victim.key] = nil }
    }
}

/// Two limits checked and reserved together (per person and panel-wide for delete passwords;
/// per name and per address for sign-in). `reserve` answers a ticket or the wait; a ticket is
/// either kept (the attempt failed: it counts) or released (it succeeded, or never reached the check).
actor AttemptGate {
    struct Ticket: Sendable, Hashable {
        fileprivate let id: Int
        fileprivate let keys: [String]
    }

    private var first: ReservingLimiter
    private var second: ReservingLimiter
    private var nextID = 0
    private let now: @Sendable () -> Date

    init(first: ReservingLimiter, second: ReservingLimiter, now: @escaping @Sendable () -> Date) {
        self.first = first
        self.second = second
        self.now = now
    }

    /// Reserves a slot under `firstKey` in the first limit and `secondKey` in the second, or
    /// answers how long to wait when either is full (nothing is reserved then).
    func reserve(_ firstKey: String, _ secondKey: String) -> Result<Ticket, Wait> {
        let time = now()
        let waits = [first.retryAfter(firstKey, now: time), second.retryAfter(secondKey, now: time)].compactMap { $0 }
        if let wait = waits.max() { return .failure(Wait(seconds: wait)) }
        nextID += 1
        first.take(firstKey, id: nextID, now: time)
        second.take(secondKey, id: nextID, now: time)
        return .success(Ticket(id: nextID, keys: [firstKey, secondKey]))
    }

    /// The attempt did not count (a right password, or the check never ran).
    func release(_ ticket: Ticket) {
        first.giveBack(ticket.keys[0], id: ticket.id)
        second.giveBack(ticket.keys[1], id: ticket.id)
    }

    /// Wait for `firstKey`/`secondKey` without reserving (to show a locked form).
    func retryAfter(_ firstKey: String, _ secondKey: String) -> TimeInterval? {
        let time = now()
        return [first.retryAfter(firstKey, now: time), second.retryAfter(secondKey, now: time)].compactMap { $0 }.max()
    }

    func remaining(_ firstKey: String, _ secondKey: String) -> Int {
        let time = now()
        return min(first.remaining(firstKey, now: time), second.remaining(secondKey, now: time))
    }

    struct Wait: Error, Sendable, Equatable {
        var seconds: TimeInterval
        /// For the `Retry-After` header: whole seconds, at least 1.
        var header: String { String(max(1, WholeNumber.clamped(seconds, rounding: .up))) }
    }
}
