import Foundation
import Testing

/// Teardown that a test awaits before it counts as finished. `defer` cannot await, and a
/// `Teardown.add { … }` lets the next test start while servers of the last one still shut
/// down (and hides their failures). Instead a test registers its teardown right after the set-up,
///
///     let harness = try await PanelHarness.start()
///     Teardown.add { await harness.stop() }
///
/// and the suite's `.awaitsTeardown` trait runs every registered step when the test ends, last
/// registered first, whether the test passed, failed or threw.
enum Teardown {
    @TaskLocal static var steps: Steps?

    static func add(_ step: @escaping @Sendable () async -> Void) {
        guard let steps else {
            Issue.record("Teardown.add needs the .awaitsTeardown trait on the suite")
            return
        }
        steps.append(step)
    }

    /// The steps of one running test. `@unchecked Sendable`: `list` is only touched under `lock`.
    final class Steps: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [@Sendable () async -> Void] = []

        func append(_ step: @escaping @Sendable () async -> Void) {
            lock.withLock { list.append(step) }
        }

        func runAll() async {
            let steps = lock.withLock { () -> [@Sendable () async -> Void] in
                defer { list.removeAll() }
                return list
            }
            for step in steps.reversed() { await step() }
        }
    }
}

/// Runs each test of the suite inside its own `Teardown` scope and awaits the steps at the end.
struct AwaitsTeardown: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> AwaitsTeardown? {
        test.isSuite ? nil : self
    }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        let steps = Teardown.Steps()
        do {
            try await Teardown.$steps.withValue(steps) { try await function() }
        } catch {
            await steps.runAll()
            throw error
        }
        await steps.runAll()
    }
}

extension Trait where Self == AwaitsTeardown {
    /// Await every `Teardown.add` step of each test before the test ends.
    static var awaitsTeardown: AwaitsTeardown { AwaitsTeardown() }
}
