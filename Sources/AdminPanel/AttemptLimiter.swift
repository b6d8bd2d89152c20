import Foundation

/// At most `limit` failures within a sliding `window`; used for wrong delete passwords (per
/// session) and wrong access codes (per address). A value type: the owner keeps it in its actor.
struct AttemptLimiter: Sendable, Equatable {
    var limit: Int
    var window: TimeInterval
    private(set) var failures: [Date] = []

    init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// When locked, how long until the oldest failure leaves the window; nil when attempts remain.
    func retryAfter(now: Date) -> TimeInterval? {
        let recent = failures.filter { now.timeIntervalSince($0) < window }
        guard recent.count >= limit, let oldest = recent.first else { return nil }
        return max(1, window - now.timeIntervalSince(oldest))
    }

    func remaining(now: Date) -> Int {
        max(0, limit - failures.filter { now.timeIntervalSince($0) < window }.count)
    }

    mutating func recordFailure(now: Date) {
        failures = failures.filter { now.timeIntervalSince($0) < window }
        failures.append(now)
    }
}
