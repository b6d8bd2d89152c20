import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One accepted connection of a fault-programmed `StubAPI`: blocking reads and writes on the
/// raw socket, and the faults. Every call returns promptly once the stub stops. Used by the
/// one thread that runs the program.
public final class StubConnection: @unchecked Sendable {
    public let fd: Int32
    private var buffer: [UInt8] = []
    /// Closed or reset by the program: the descriptor may already be someone else's.
    private var ended = false
    private let counts: StubAPI.Counts
    private let finish: (_ reset: Bool) -> Void

    init(fd: Int32, counts: StubAPI.Counts, finish: @escaping (_ reset: Bool) -> Void) {
        self.fd = fd
        self.counts = counts
        self.finish = finish
    }

    /// The next request: its head and a `Content-Length` body (clients under test never send
    /// chunked bodies to an API). Nil at the end of the stream, on an error, or past `limit` bytes.
    public func readRequest(limit: Int = 32 << 20) -> StubRequest? {
        guard !ended else { return nil }
        var total: Int?
        while true {
            if total == nil, let end = find([13, 10, 13, 10], in: buffer) {
                let length = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n").dropFirst()
                    .first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                total = end + 4 + length
            }
            if let total, buffer.count >= total {
                let raw = Array(buffer[..<total])
                buffer.removeFirst(total)
                let request = Self.parse(raw)
                counts.update {
                    $0.requests += 1
                    $0.received.append(request)
                }
                return request
            }
            guard buffer.count < limit else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            buffer += chunk[..<n]
        }
    }

    private static func parse(_ raw: [UInt8]) -> StubRequest {
        let headEnd = find([13, 10, 13, 10], in: raw) ?? raw.count
        var lines = String(decoding: raw[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        let headers = lines.map { line -> (name: String, value: String) in
            let pair = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(pair[0]), pair.count > 1 ? pair[1].trimmingCharacters(in: .whitespaces) : "")
        }
        return StubRequest(method: requestLine.first.map(String.init) ?? "",
                           target: requestLine.count > 1 ? String(requestLine[1]) : "",
                           headers: headers, body: Array(raw[min(raw.count, headEnd + 4)...]), raw: raw)
    }

    /// Writes all of `bytes`; false once the peer is gone.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard !ended else { return false }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// A well-formed answer framed by `Content-Length`; false once the peer is gone.
    @discardableResult
    public func respond(status: Int, reason: String = "Stub", headers: [(String, String)] = [], body: [UInt8] = []) -> Bool {
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return write(Array(head.utf8) + body)
    }

    /// Ends the connection with RST instead of FIN: the peer's next read fails with ECONNRESET.
    public func reset() {
        if !ended { finish(true) }
        ended = true
    }

    /// Ends the connection (FIN); later calls do nothing.
    public func close() {
        if !ended { finish(false) }
        ended = true
    }

    /// Waits until the peer closes its side or sends more (true), or `seconds` pass (false).
    /// With a `heartbeat`, sends it every 50 ms meanwhile (an answer that trickles in); the
    /// wait ends (true) when the peer no longer takes it.
    public func waitForPeer(seconds: Double, heartbeat: [UInt8]? = nil) -> Bool {
        guard !ended else { return true }
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var watch = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let wait = heartbeat == nil ? Int32(deadline.timeIntervalSinceNow * 1000) : 50
            if poll(&watch, 1, max(1, wait)) != 0 { return true }
            if let heartbeat, !write(heartbeat) { return true }
        }
        return false
    }
}

/// The accept loop of a fault-programmed stub: a thread per connection, all shut down by `stop`.
final class RawListener: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let counts: StubAPI.Counts
    private let program: @Sendable (StubConnection) -> Void
    private let lock = NSLock()
    // Guarded by `lock`: a descriptor is closed and forgotten in one step, so `stop` never
    // shuts down a number the kernel has since given to someone else.
    private var open: Set<Int32> = []
    private var stopped = false
    private var listenerClosed = false

    init(counts: StubAPI.Counts, program: @escaping @Sendable (StubConnection) -> Void) throws {
        self.counts = counts
        self.program = program
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 && listen(fd, 128) == 0
            }
        }
        guard listening else { Glibc.close(fd); throw POSIXError(.EADDRINUSE) }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    var openConnections: Int { lock.withLock { open.count } }

    func stop() {
        lock.withLock {
            stopped = true
            if !listenerClosed { shutdown(listener, Int32(SHUT_RDWR)) }   // wakes `accept`; its thread closes it
            for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            let accepted = lock.withLock { () -> Bool in
                guard !stopped else { return false }
                open.insert(fd)
                return true
            }
            guard accepted else { Glibc.close(fd); break }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)   // no child process spawned meanwhile inherits it
            counts.update { $0.connections += 1 }
            let connection = StubConnection(fd: fd, counts: counts) { [self] reset in finish(fd, reset: reset) }
            Thread.detachNewThread { [program] in
                program(connection)
                connection.close()   // through the connection: its number may be another's by now if the program closed it
            }
        }
        lock.withLock {
            listenerClosed = true
            Glibc.close(listener)
        }
    }

    private func finish(_ fd: Int32, reset: Bool) {
        lock.withLock {
            guard open.remove(fd) != nil else { return }
            if reset {
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            }
            Glibc.close(fd)
        }
    }
}
