/// The connections of one event loop that wait for a request head, oldest first, so the
/// longest-idle ones can be closed when the server is full (a flood of idle connections must
/// not lock people out). A connection joins when it enters `readingHead` and leaves when it
/// leaves it; all O(1), on the loop thread only.
final class IdleConnections {
    private var head: Connection?
    private var tail: Connection?
    private(set) var count = 0

    func insert(_ connection: Connection) {
        guard !connection.idleLink.listed else { return }
        connection.idleLink = IdleLink(listed: true, previous: tail, next: nil)
        if let tail { tail.idleLink.next = connection } else { head = connection }
        tail = connection
        count += 1
    }

    func remove(_ connection: Connection) {
        let link = connection.idleLink
        guard link.listed else { return }
        if let previous = link.previous { previous.idleLink.next = link.next } else { head = link.next }
        if let next = link.next { next.idleLink.previous = link.previous } else { tail = link.previous }
        connection.idleLink = IdleLink()
        count -= 1
    }

    /// The connection idle the longest, if any.
    var oldest: Connection? { head }
}

/// A connection's place in its loop's `IdleConnections`.
struct IdleLink {
    var listed = false
    var previous: Connection?
    var next: Connection?
}
