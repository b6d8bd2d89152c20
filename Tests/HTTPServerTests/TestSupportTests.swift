import Foundation
import TestSupport
import Testing

/// The helpers' blocking socket calls must not hold threads of the Swift concurrency pool: on
/// Linux the global dispatch queues lend their threads to that pool (as wide as the CPU count),
/// so blocking work queued there left the servers under test, and every other suite running in
/// the process, without threads to run their handlers and resume their tasks.
struct TestSupportTests {
    @Test func blockingHelperWorkRunsOffTheConcurrencyPool() async throws {
        let poolLabel = currentDispatchQueueLabel()   // this test runs on the pool
        let label = try await offPool { currentDispatchQueueLabel() }
        #expect(label != DispatchQueue.global().label)
        #expect(label != poolLabel)
    }
}
