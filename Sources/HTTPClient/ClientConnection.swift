import Foundation
import NetworkIO
import TLS

/// One upstream connection of `HTTPClient`, plain or HTTPS (its `stream` hides which).
/// `@unchecked Sendable`: every method runs on the client's event-loop thread (socket events,
/// ticks, and the pool's calls made there).
final class ClientConnection: EventLoopClient, @unchecked Sendable {
    private enum Phase { case connecting, handshaking, busy, idle, closed }

    let key: ClientPool.Key
    private let fd: Int32
    private let stream: any ClientStream
    private let pool: ClientPool
    private var phase = Phase.connecting
    private var job: ClientJob?
    private var reused = false
    private var parser = ResponseParser(isHeadRequest: false)
    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    private var writeInterest = false
    private var connectDeadline: UInt64
    private var idleSince: UInt64 = 0

    private init(fd: Int32, stream: any ClientStream, key: ClientPool.Key, pool: ClientPool) {
        self.fd = fd
        self.stream = stream
        self.key = key
        self.pool = pool
        connectDeadline = monotonicNanos() + pool.connectTimeout
    }

    /// Starts a non-blocking connect; the connection reports to the pool from then on.
    static func connect(to address: ClientAddress, key: ClientPool.Key, tls: TLSContext?, pool: ClientPool)
        -> Result<ClientConnection, HTTPClientError> {
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(.connectionFailed(String(cString: strerror(errno)))) }
        var storage = address.storage
        let rc = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, address.length) }
        }
        if rc != 0 && errno != EINPROGRESS && errno != EINTR {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            return .failure(.connectionFailed(reason))
        }
        Socket.setNoDelay(fd)
        let stream: any ClientStream
        if let tls {
            do {
                stream = try TLSStream(fd: fd, context: tls, serverName: key.host, scratch: pool.cipherScratch)
            } catch {
                Glibc.close(fd)
                return .failure(.connectionFailed(error.description))
            }
        } else {
            stream = PlainStream(fd: fd)
        }
        let connection = ClientConnection(fd: fd, stream: stream, key: key, pool: pool)
        connection.writeInterest = true
        pool.loop.register(fd, connection, readable: false, writable: true)
        return .success(connection)
    }

    /// Sends `job`'s request (queued until connected).
    func run(_ job: ClientJob, reused: Bool) {
        self.job = job
        self.reused = reused
        var limits = pool.limits
        limits.maxBodyBytes = job.maxBodyBytes
        parser = ResponseParser(isHeadRequest: job.isHead, limits: limits)
        outbound = job.bytes
        outboundOffset = 0
        guard phase != .connecting && phase != .handshaking else { return }
        phase = .busy
        flush()
    }

    func handleEvent(readable: Bool, writable: Bool, hangUp: Bool) {
        if phase == .connecting {
            guard writable || hangUp else { return }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else {
                fail(.connectionFailed(String(cString: strerror(error))))
                return
            }
            phase = .handshaking
        }
        if phase == .handshaking {
            advanceHandshake()
            return
        }
        if writable { flush() }
        if readable && phase != .closed { readAvailable() }
        if hangUp && phase != .closed { connectionLost() }
    }

    func tick(now: UInt64) {
        switch phase {
        case .connecting, .handshaking:
            if now >= connectDeadline { fail(.connectionFailed("connect timed out")) }
            else if let job, now >= job.deadline { fail(.timeout) }
        case .busy:
            if let job, now >= job.deadline { fail(.timeout) }
        case .idle:
            if now - idleSince > pool.idleTimeout { close() }
        case .closed:
            break
        }
    }

    /// TLS (a plain stream is done at once): on to the request, or wait for the socket.
    private func advanceHandshake() {
        switch stream.handshake() {
        case .done:
            phase = job == nil ? .idle : .busy
            if phase == .idle { idleSince = monotonicNanos() }
            writeInterest = false
            pool.loop.modify(fd, readable: true, writable: false)
            if phase == .busy { flush() }
        case .waiting:
            writeInterest = stream.hasPendingOutput
            pool.loop.modify(fd, readable: true, writable: writeInterest)
        case .failed(let reason):
            fail(.connectionFailed(reason))
        }
    }

    private func flush() {
        while outboundOffset < outbound.count {
            let result = outbound.withUnsafeBytes { stream.write(UnsafeRawBufferPointer(rebasing: $0[outboundOffset...])) }
            switch result {
            case .done(let n): outboundOffset += n
            case .wouldBlock:
                setWriteInterest(true)
                return
            case .closed, .failed:
                connectionLost()
                return
            }
        }
        outbound = []
        outboundOffset = 0
        switch stream.flushPending() {   // ciphertext the socket has not taken yet
        case .done: setWriteInterest(false)
        case .wouldBlock: setWriteInterest(true)
        case .closed, .failed: connectionLost()
        }
    }

    private func readAvailable() {
        let buffer = pool.loop.readBuffer
        while phase != .closed {
            switch stream.read(into: buffer) {
            case .done(let n):
                guard phase == .busy else { close(); return }   // bytes nobody asked for
                parser.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                switch parser.parse() {
                case .needMore: continue
                case .malformed: fail(parser.refusal ?? .malformedResponse); return
                case .complete(let response): finish(response); return
                }
            case .wouldBlock:
                return
            case .closed, .failed:
                connectionLost()
                return
            }
        }
    }

    private func finish(_ response: ResponseParser.Response) {
        let job = self.job
        self.job = nil
        // Reusable only if our request went out whole (a server may answer early, e.g. 413).
        if response.reusable && outbound.isEmpty {
            phase = .idle
            idleSince = monotonicNanos()
            pool.checkIn(self)
        } else {
            close()
        }
        job?.complete(.success(response))
    }

    /// EOF or reset: completes a read-until-close body, retries an idempotent request that a
    /// stale pooled connection swallowed, or fails.
    private func connectionLost() {
        guard let job, phase == .busy else { close(); return }
        if parser.receivedBytes == 0 && reused && job.idempotent && !job.retried {
            self.job = nil
            job.retried = true
            close()
            pool.perform(job)
            return
        }
        switch parser.finishAtEOF() {
        case .complete(let response):
            self.job = nil
            close()
            job.complete(.success(response))
        case .malformed where parser.receivedBytes > 0:
            fail(parser.refusal ?? .incompleteResponse)
        default:
            fail(.connectionFailed("the server closed the connection"))
        }
    }

    private func fail(_ error: HTTPClientError) {
        let job = self.job
        self.job = nil
        close()
        job?.complete(.failure(error))
    }

    func close() {
        guard phase != .closed else { return }
        phase = .closed
        pool.loop.unregister(fd)
        stream.shutdown()
        Glibc.close(fd)
        job?.complete(.failure(.connectionFailed("connection closed")))
        job = nil
        pool.closed(self)
    }

    private func setWriteInterest(_ on: Bool) {
        guard on != writeInterest, phase != .closed else { return }
        writeInterest = on
        pool.loop.modify(fd, readable: phase != .connecting, writable: on)
    }
}
