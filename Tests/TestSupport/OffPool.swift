import Foundation
#if canImport(CDispatch)
import CDispatch
#endif

/// Runs blocking work (a child's output, a blocking socket, waiting for an exit) on a thread of
/// its own and awaits it. Not a global dispatch queue: on Linux those share their threads with
/// the Swift concurrency pool (as wide as the CPU count), which the servers under test in this
/// same process need to run their handlers.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// The label of the dispatch queue the caller runs on ("" where Dispatch cannot tell).
public func currentDispatchQueueLabel() -> String {
    #if canImport(CDispatch)
    String(cString: dispatch_queue_get_label(nil))
    #else
    ""
    #endif
}
