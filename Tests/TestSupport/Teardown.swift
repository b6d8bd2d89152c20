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
public enum Teardown {
    @TaskLocal public static var steps: Steps?

    public static func add(_ step: @escaping @Sendable () async -> Void) {
        guard let steps else {
            Issue.record("Teardown.add needs the .awaitsTeardown trait on the suite")
            return
        }
        steps.append(step)
    }

    /// The steps of one running test. `@unchecked Sendable`: `list` is only touched under `lock`.
    public final class Steps: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [@Sendable () async -> Void] = []

        public func append(_ step: @escaping @Sendable () async -> Void) {
            lock.withLock { list.append(step) }
        }

        public func runAll() async {
            let steps = lock.withLock { () -> [@Sendable () async -> Void] in
                defer { list.removeAll() }
                return list
            }
            for step in steps.reversed() { await step() }
        }
    }
}

/// Runs each test of the suite inside its own `Teardown` scope and awaits the steps at the end.
public struct AwaitsTeardown: SuiteTrait, TestTrait, TestScoping {
    public init() {}

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> AwaitsTeardown? {
        test.isSuite ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?,
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
    public static var awaitsTeardown: AwaitsTeardown { AwaitsTeardown() }
}
