import Synchronization

/// One event loop's access-log records on their way to the log thread: a ring with exactly one
/// writer (the loop) and one reader (the `AccessLogWriter` thread), so the two share no lock,
/// and no two loops share anything.
///
/// When the ring is full (the log thread is stuck behind a stalled sink), `append` drops the
/// record and counts it; the log thread reports the count in the log once it catches up. The
/// loop never waits.
final class AccessLogRing: @unchecked Sendable {   // `slots` and `cachedHead` follow the one-writer, one-reader protocol below
    let capacity: Int
    private let mask: Int
    /// Fixed memory both threads address at once, each its own slots: an `Array` property here
    /// would be a data race (every element access goes through the property and its buffer's
    /// reference, and a write finding the buffer shared copies it, losing the reader's slots). Slots are plain `AccessLogRecord`s (no
    /// references), initialized once, freed in `deinit`; `AccessLogRingTests` fill, wrap and
    /// overflow it from two threads (ASan and TSan runs).
    private let slots: UnsafeMutablePointer<AccessLogRecord>
    /// Records taken by the reader (it writes, the loop reads).
    private let head = Atomic<Int>(0)
    /// Records published by the loop (it writes, the reader reads).
    private let tail = Atomic<Int>(0)
    /// Records dropped because the ring was full, since the start (the loop writes).
    private let droppedTotal = Atomic<Int>(0)
    /// The loop's last look at `head`: read again only when the ring seems full.
    private var cachedHead = 0
    /// The server stopped: once empty, the reader forgets the ring.
    private let retiredFlag = Atomic<Bool>(false)

    /// Turns a record into a log entry and delivers it (on the log thread).
    let routes: AccessLogRouteNames
    let deliver: @Sendable (AccessLogEntry) -> Void
    /// Drops the reader has reported so far (the log thread only).
    var droppedReported = 0

    /// - Parameter capacity: rounded up to a power of two.
    /// Tells the log thread a record is there (it only signals when the thread sleeps).
    private let published: @Sendable () -> Void

    init(capacity: Int, routes: AccessLogRouteNames, deliver: @escaping @Sendable (AccessLogEntry) -> Void,
         published: @escaping @Sendable () -> Void) {
        self.published = published
        var size = 2
        while size < capacity { size <<= 1 }
        self.capacity = size
        mask = size - 1
        slots = .allocate(capacity: size)
        slots.initialize(repeating: AccessLogRecord(), count: size)
        self.routes = routes
        self.deliver = deliver
    }

    deinit { slots.deallocate() }

    // MARK: the loop's side

    /// Publishes `record`, or counts it dropped when the ring is full. Never blocks.
    /// Sequentially consistent on purpose: with `AccessLogWriter`'s sleeping flag, either the
    /// log thread sees this record or the loop sees that it must be woken.
    @discardableResult
    func append(_ record: AccessLogRecord) -> Bool {
        let position = tail.load(ordering: .relaxed)
        if position - cachedHead >= capacity {
            cachedHead = head.load(ordering: .acquiring)
            if position - cachedHead >= capacity {
                droppedTotal.wrappingAdd(1, ordering: .relaxed)
                return false
            }
        }
        slots[position & mask] = record
        tail.store(position + 1, ordering: .sequentiallyConsistent)
        published()
        return true
    }

    // MARK: the log thread's side

    var isEmpty: Bool { head.load(ordering: .acquiring) == tail.load(ordering: .sequentiallyConsistent) }

    /// Copies out what the loop has published (at most `limit`), without freeing the slots yet.
    func peek(into records: inout [AccessLogRecord], limit: Int) -> Int {
        let start = head.load(ordering: .relaxed)
        let end = min(tail.load(ordering: .acquiring), start + limit)
        for position in start..<end { records.append(slots[position & mask]) }
        return end - start
    }

    /// Frees `count` slots taken with `peek` (after they were delivered, so an empty ring means
    /// every record in it reached its destination).
    func release(_ count: Int) {
        head.store(head.load(ordering: .relaxed) + count, ordering: .releasing)
    }

    /// Drops counted since the last call.
    func takeNewDrops() -> Int {
        let total = droppedTotal.load(ordering: .relaxed)
        defer { droppedReported = total }
        return total &- droppedReported
    }

    func retire() { retiredFlag.store(true, ordering: .releasing) }
    var isRetired: Bool { retiredFlag.load(ordering: .acquiring) }
}
