import Foundation
import TestSupport
import Testing
import NetworkIO

@Suite struct BlockingThreadTests {
    @Test func runsWorkOffTheCallersThreadInOrder() async throws {
        let thread = BlockingThread()
        let order = Locked<[Int]>([])
        let callerThread = pthread_self()
        let ran = await thread.run { pthread_equal(pthread_self(), callerThread) == 0 }
        #expect(ran)
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<20 { group.addTask { await thread.run { order.withLock { $0.append(i) } } } }
        }
        #expect(order.value.sorted() == Array(0..<20))
    }

    @Test func rethrowsWhatTheWorkThrows() async {
        struct Failed: Error {}
        await #expect(throws: Failed.self) { try await BlockingThread().run { () throws -> Int in throw Failed() } }
    }

    @Test func blockingWorkDoesNotStarveTheConcurrencyPool() async throws {
        // More blocked calls than the pool has threads: the pool must still run this task.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let release = DispatchSemaphore(value: 0)
        let started = Locked(0)
        let waiters = (0..<(cores + 2)).map { _ in
            Task { await BlockingThread().run { started.withLock { $0 += 1 }; release.wait() } }
        }
        #expect(await eventually { started.value == cores + 2 })
        let stillServed = await Task.detached { 42 }.value
        #expect(stillServed == 42)
        for _ in waiters { release.signal() }
        for waiter in waiters { await waiter.value }
    }
}

@Suite struct HostNameTests {
    @Test func bracketsIPv6LiteralsOnly() {
        #expect(HostName.bracketed("::1") == "[::1]")
        #expect(HostName.bracketed("[::1]") == "[::1]")
        #expect(HostName.bracketed("127.0.0.1") == "127.0.0.1")
        #expect(HostName.bracketed("example.com") == "example.com")
    }
}
