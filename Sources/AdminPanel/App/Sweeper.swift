/// Runs a periodic chore until stopped.
actor Sweeper {
    private var task: Task<Void, Never>?
    private var stopped = false

    func run(every interval: Duration, _ chore: @escaping @Sendable () async -> Void) {
        guard !stopped else { return }
        task?.cancel()
        task = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                await chore()
            }
        }
    }

    /// Cancels the chore and waits for a run under way to finish (its writes land before the
    /// databases close).
    func stop() async {
        stopped = true
        let running = task
        task = nil
        running?.cancel()
        await running?.value
    }
}
