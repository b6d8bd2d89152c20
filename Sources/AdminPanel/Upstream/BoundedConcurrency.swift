/// Runs one async call per element, at most `limit` at a time: every batch of API calls the panel
/// makes (bulk actions, reverts, import reads and applies, duplicate's image reads) goes through
/// here, so there is one task group of this shape in the panel, not one per feature.
///
/// The child task binds the call's result to a local before it builds the `(index, value)` pair it
/// returns. That order matters in release builds: Swift 6.3.1 at `-O` (LLVM's dead store
/// elimination in the specialised caller) drops the index stored before the `try await` of
/// `do { return (index, try await call()) } catch { return (index, nil) }`, so the pair arrives
/// with index 0 (docs/testing.md, "A release-only defect"; `Tests/Toolchain` shows it).
enum BoundedConcurrency {
    /// The results in the elements' order. `whenDone` runs in the caller's task as each call
    /// finishes (in finishing order), so work that must follow each call, like recording it, is not
    /// held back until the slowest one ends.
    static func map<Element: Sendable, Value: Sendable>(
        _ elements: [Element], limit: Int,
        whenDone: (Value) async -> Void = { _ in },
        _ call: @escaping @Sendable (Element) async -> Value
    ) async -> [Value] {
        var results = [Value?](repeating: nil, count: elements.count)
        await withTaskGroup(of: (Int, Value).self) { group in
            var next = 0
            func startNext() {
                guard next < elements.count else { return }
                let index = next, element = elements[index]
                next += 1
                group.addTask {
                    let value = await call(element)
                    return (index, value)
                }
            }
            for _ in 0..<min(max(1, limit), elements.count) { startNext() }
            while let (index, value) = await group.next() {
                results[index] = value
                await whenDone(value)
                startNext()
            }
        }
        return results.map { $0! }
    }
}
