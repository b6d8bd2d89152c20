/// Runs one piece of work per key at a time: callers that ask for a key already being worked on
/// wait for that work's result instead of starting their own. The media proxy uses it so a page
/// of twenty cards that all miss the cache for the same image fetches it from upstream once.
///
/// The work runs in a task of its own, so a caller that goes away (its connection closed) does
/// not cancel it for the others still waiting.
actor SingleFlight<Value: Sendable> {
    private var running: [String: Task<Value, Never>] = [:]

    /// Work started, and callers that joined work already running (tests count with them).
    private(set) var started = 0
    private(set) var joined = 0

    func run(_ key: String, _ work: @escaping @Sendable () async -> Value) async -> Value {
        if let task = running[key] {
            joined += 1
            return await task.value
        }
        let task = Task { await work() }
        running[key] = task
        started += 1
        let value = await task.value
        running[key] = nil
        return value
    }
}
