import Foundation
import NetworkIO

/// Keep-alive connections per host, at most `maxPerHost` open; requests beyond wait their turn.
/// `@unchecked Sendable`: it is created before the loop starts and from then on touched only on
/// the client's event-loop thread (callers reach it through `loop.execute`).
final class ClientPool: @unchecked Sendable {
    struct Key: Hashable, Sendable {
        var host: String
        var port: Int
        /// HTTPS: never shares a connection with plain HTTP to the same host and port.
        var secure = false
        /// The address a caller chose (and judged): its connections are never shared with
        /// requests that resolved the name themselves, or chose another address.
        var pinned: ClientAddress? = nil
    }

    let loop: EventLoop
    let maxPerHost: Int
    let connectTimeout: UInt64
    /// What every response on the pool's connections is parsed with.
    let limits: ResponseParser.Limits
    /// Pooled connections unused this long are closed (below the usual 30 s server idle timeout).
    let idleTimeout: UInt64 = 20_000_000_000
    private var idle: [Key: [ClientConnection]] = [:]
    private var open: [Key: Int] = [:]
    private var waiting: [Key: [ClientJob]] = [:]
    /// Ciphertext on its way into OpenSSL, for every TLS connection of the pool (one thread reads).
    let cipherScratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 32 * 1024, alignment: 16)

    init(loop: EventLoop, maxPerHost: Int, connectTimeout: UInt64, limits: ResponseParser.Limits) {
        self.loop = loop
        self.maxPerHost = maxPerHost
        self.connectTimeout = connectTimeout
        self.limits = limits
    }

    deinit { cipherScratch.deallocate() }

    func perform(_ job: ClientJob) {
        if let connection = idle[job.key]?.popLast() {
            connection.run(job, reused: true)
        } else if open[job.key, default: 0] < maxPerHost {
            open[job.key, default: 0] += 1
            switch ClientConnection.connect(to: job.address, key: job.key, tls: job.tls, pool: self) {
            case .success(let connection): connection.run(job, reused: false)
            case .failure(let error):
                open[job.key, default: 1] -= 1
                job.complete(.failure(error))
            }
        } else {
            waiting[job.key, default: []].append(job)
        }
    }

    /// A connection finished its exchange and can take another request.
    func checkIn(_ connection: ClientConnection) {
        if var queue = waiting[connection.key], !queue.isEmpty {
            let job = queue.removeFirst()
            waiting[connection.key] = queue
            connection.run(job, reused: true)
        } else {
            idle[connection.key, default: []].append(connection)
        }
    }

    /// A connection closed (after use, on error, or idle).
    func closed(_ connection: ClientConnection) {
        idle[connection.key]?.removeAll { $0 === connection }
        open[connection.key, default: 1] -= 1
        if var queue = waiting[connection.key], !queue.isEmpty {
            let job = queue.removeFirst()
            waiting[connection.key] = queue
            perform(job)
        }
    }

    /// Fails requests that waited for a connection past their deadline.
    func expireWaiting(now: UInt64) {
        for (key, queue) in waiting {
            let expired = queue.filter { $0.deadline <= now }
            guard !expired.isEmpty else { continue }
            waiting[key] = queue.filter { $0.deadline > now }
            for job in expired { job.complete(.failure(.timeout)) }
        }
    }

    func closeAll() {
        for connection in idle.values.flatMap({ $0 }) { connection.close() }
        for job in waiting.values.flatMap({ $0 }) { job.complete(.failure(.connectionFailed("client closed"))) }
        waiting = [:]
        loop.forEachClient { ($0 as? ClientConnection)?.close() }
    }
}
