import Foundation
import HTTPServer
import OpenMarketCore

/// Everyone's open `/events` streams and the last product events, so a page that reconnects
/// gets what it missed (`Last-Event-ID`), or `reset` when that is gone.
///
/// Each stream is an `EventStreamWriter` on the server's event loops: a stream costs about an
/// idle connection; this keeps only a small record per stream and the ring of recent events.
final class LiveStreams: Sendable {
    /// One open stream: whose it is, and the product page it was opened from (presence).
    struct Subscriber: Sendable {
        let writer: EventStreamWriter
        let person: String
        /// The session behind it (nil without sign-in): a revoked session ends the stream.
        let sessionHash: String?
        let productID: Int?
    }

    private struct StoredEvent {
        let id: Int
        let at: Date
        let bytes: [UInt8]
    }

    private struct State {
        /// The next event's id. Started from the clock, so ids keep rising across restarts and
        /// a page's `Last-Event-ID` from before one is older than the ring (→ reset), never
        /// mistaken for a later event.
        var nextID: Int
        var ring: [StoredEvent] = []
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
        var lastKeepAlive: Date
    }

    static let ringSize = 1_000
    static let ringAge: TimeInterval = 600
    static let keepAliveInterval: TimeInterval = 20
    static let farewell = Array("event: bye\ndata: \n\n".utf8)
    private static let reset = Array("event: reset\ndata: \n\n".utf8)
    private static let keepAlive = Array(": keep-alive\n\n".utf8)

    private let state: Locked<State>
    private let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date) {
        self.now = now
        let start = now()
        state = Locked(State(nextID: WholeNumber.clamped(start.timeIntervalSince1970 * 1000), lastKeepAlive: start))
    }

    /// Open streams right now.
    var count: Int { state.withLock { $0.subscribers.count } }

    /// Product events kept for replay.
    var storedEventCount: Int { state.withLock { $0.ring.count } }

    /// Publishes one product event (`data` is its JSON) to every stream and keeps it for replay.
    func publishProduct(_ data: [UInt8]) {
        let time = now()
        let (bytes, writers) = state.withLock { s -> ([UInt8], [EventStreamWriter]) in
            let id = s.nextID
            s.nextID += 1
            var bytes = Array("event: product\nid: \(id)\ndata: ".utf8)
            bytes += data
            bytes += Array("\n\n".utf8)
            s.ring.append(StoredEvent(id: id, at: time, bytes: bytes))
            Self.trim(&s.ring, now: time)
            return (bytes, s.subscribers.values.map(\.writer))
        }
        for writer in writers { writer.send(bytes) }
    }

    /// Tells every stream to reload (too much changed at once to send one by one).
    func publishReset() {
        for writer in state.withLock({ $0.subscribers.values.map(\.writer) }) { writer.send(Self.reset) }
    }

    /// A new stream: replays what its page missed (or asks it to reload) and announces presence.
    func open(_ subscriber: Subscriber, lastEventID: String?) {
        let key = ObjectIdentifier(subscriber.writer)
        let time = now()
        let catchUp = state.withLock { s -> [[UInt8]] in
            s.subscribers[key] = subscriber
            Self.trim(&s.ring, now: time)
            guard let lastEventID else { return [] }
            guard let last = Int(lastEventID.trimmingCharacters(in: .whitespaces)), last < s.nextID else { return [Self.reset] }
            if last == s.nextID - 1 { return [] }
            guard let oldest = s.ring.first, oldest.id <= last + 1 else { return [Self.reset] }
            return s.ring.filter { $0.id > last }.map(\.bytes)
        }
        // Sent as one piece: the page sees the missed events in order, before any new one.
        subscriber.writer.send(Array(": connected\n\n".utf8) + catchUp.joined())
        subscriber.writer.onClose { [self] in closed(key, productID: subscriber.productID) }
        if let product = subscriber.productID { announcePresence(of: product) }
    }

    private func closed(_ key: ObjectIdentifier, productID: Int?) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
        if let productID { announcePresence(of: productID) }
    }

    /// Tells each stream open on `product` who else has it open (names only, without their own).
    private func announcePresence(of product: Int) {
        let watching = state.withLock { $0.subscribers.values.filter { $0.productID == product } }
        for subscriber in watching {
            let others = Set(watching.map(\.person)).subtracting([subscriber.person]).sorted()
            let json = (try? JSONEncoder().encode(LivePresence(product: product, people: others))) ?? Data()
            subscriber.writer.send(Array("event: presence\ndata: ".utf8) + Array(json) + Array("\n\n".utf8))
        }
    }

    /// The periodic chore: a keep-alive comment every 20 s, old events out of the ring, and
    /// streams whose session ended (sign-out, revoked, person disabled) closed.
    func tick(sessionIsLive: (String) async -> Bool) async {
        let time = now()
        let (sendKeepAlive, subscribers) = state.withLock { s -> (Bool, [Subscriber]) in
            Self.trim(&s.ring, now: time)
            let due = time.timeIntervalSince(s.lastKeepAlive) >= Self.keepAliveInterval
            if due { s.lastKeepAlive = time }
            return (due, Array(s.subscribers.values))
        }
        var checked: [String: Bool] = [:]
        for subscriber in subscribers {
            if let hash = subscriber.sessionHash {
                let live: Bool
                if let known = checked[hash] { live = known } else {
                    live = await sessionIsLive(hash)
                    checked[hash] = live
                }
                if !live { subscriber.writer.finish(); continue }
            }
            if sendKeepAlive { subscriber.writer.send(Self.keepAlive) }
        }
    }

    private static func trim(_ ring: inout [StoredEvent], now: Date) {
        let tooOld = now.addingTimeInterval(-ringAge)
        let drop = max(ring.prefix { $0.at < tooOld }.count, ring.count - ringSize)
        if drop > 0 { ring.removeFirst(min(drop, ring.count)) }
    }
}

/// `event: presence` data: who else has the product open.
struct LivePresence: Encodable {
    var product: Int
    var people: [String]
}
