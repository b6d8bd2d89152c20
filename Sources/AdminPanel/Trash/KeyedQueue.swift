/// Runs work for one key after the work already queued for that key (one restore or revert of an
/// item at a time: a double click or two people at once see the first one's result instead of
/// doing it twice). Different keys run side by side.
actor KeyedQueue<Key: Hashable & Sendable> {
    private var tails: [Key: Task<Void, Never>] = [:]

    func run<T: Sendable>(_ key: Key, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let previous = tails[key]
        let task = Task<T, any Error> {
            await previous?.value
            return try await work()
        }
        let tail = Task<Void, Never> { _ = try? await task.value }
        tails[key] = tail
        defer { Task { await self.forget(key, tail) } }
        return try await task.value
    }

    private func forget(_ key: Key, _ tail: Task<Void, Never>) async {
        await tail.value
        if tails[key] == tail { tails[key] = nil }
    }
}
