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

    func stop() {
        stopped = true
        task?.cancel()
        task = nil
    }
}
