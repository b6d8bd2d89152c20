import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for the Open Market API in front of a real one (a sandbox), switched between
/// behaving and misbehaving while the panel is under load:
///
/// - `.healthy`: each request is passed on to the backend and its answer back, re-framed with
///   `Content-Length` so the panel's pooled keep-alive connections stay in use. The `Host`
///   header is kept, so the sandbox's image links name this stand-in, as they would the API.
/// - `.flapping`: new connections are reset at once; a request on an open connection is answered,
///   in turn, by a reset, by a close, or by half a response and a close.
/// - `.slow`: a request is held until the panel gives up and closes the connection, in turn
///   without a byte, or while an answer trickles in a byte at a time. Only if the panel still
///   waits after `slowHold` (its timeout should have ended the wait long before) is the request
///   passed on, late.
/// - `.garbage`: answers, in turn, with bytes that are not HTTP, a malformed HTTP head, a head
///   that never ends, a 30 MiB body, and valid HTTP whose body is HTML, truncated JSON, or JSON
///   of the wrong shape.
///
/// A request that meets a fault never reaches the backend, so a write the panel reports as failed
/// did not happen. Blocking sockets and a thread per connection: simple, and never on the Swift
/// concurrency pool the tests' own tasks use.
final class FaultyUpstream: @unchecked Sendable {
    enum Mode: String, Sendable, CaseIterable { case healthy, flapping, slow, garbage }

    let port: Int
    let backendPort: Int
    let slowHold: TimeInterval
    private let listener: Int32
    private let lock = NSLock()
    // Guarded by `lock`.
    private var currentMode = Mode.healthy
    private var connections: Set<Int32> = []
    private var handled: [Mode: Int] = [:]
    /// Requests so far: picks the next fault in turn.
    private var turns = 0
    private var stopped = false
    private var listenerClosed = false

    init(backendPort: Int, slowHold: TimeInterval) throws {
        self.backendPort = backendPort
        self.slowHold = slowHold
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 && listen(fd, 128) == 0
            }
        }
        guard listening else { close(fd); throw POSIXError(.EADDRINUSE) }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    var mode: Mode {
        get { lock.withLock { currentMode } }
        set { lock.withLock { currentMode = newValue } }
    }

    /// Requests (and, when flapping, connections) met in each mode so far.
    func handledCount(_ mode: Mode) -> Int { lock.withLock { handled[mode, default: 0] } }

    /// Connections from the panel open right now.
    var openConnections: Int { lock.withLock { connections.count } }

    func stop() {
        lock.withLock {
            stopped = true
            if !listenerClosed { Glibc.shutdown(listener, Int32(SHUT_RDWR)) }   // wakes `accept`; its thread closes it
            for fd in connections { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    // MARK: Connections

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            let mode = lock.withLock { () -> Mode? in
                guard !stopped else { return nil }
                connections.insert(fd)
                return currentMode
            }
            guard let mode else { close(fd); break }
            if mode == .flapping {
                count(.flapping)
                reset(fd)
                continue
            }
            Thread.detachNewThread { [self] in serve(fd) }
        }
        lock.withLock {
            listenerClosed = true
            close(listener)
        }
    }

    private func serve(_ fd: Int32) {
        var buffer: [UInt8] = []
        var open = true
        while open, let request = readRequest(fd, &buffer) {
            let (mode, turn) = lock.withLock { () -> (Mode, Int) in
                handled[currentMode, default: 0] += 1
                turns += 1
                return (currentMode, turns)
            }
            switch mode {
            case .healthy: open = forward(request, to: fd)
            case .flapping: flap(fd, turn: turn); return
            case .slow: open = !panelGaveUp(fd, trickling: turn % 2 == 0) && forward(request, to: fd)
            case .garbage: open = sendGarbage(fd, turn: turn)
            }
        }
        finish(fd)
    }

    private func count(_ mode: Mode) { lock.withLock { handled[mode, default: 0] += 1 } }

    private func finish(_ fd: Int32) {
        lock.withLock {
            connections.remove(fd)
            close(fd)
        }
    }

    /// Closes with RST instead of FIN (the peer's next read fails with ECONNRESET).
    private func reset(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        finish(fd)
    }

    // MARK: Faults

    private func flap(_ fd: Int32, turn: Int) {
        switch turn % 3 {
        case 0: reset(fd)
        case 1: finish(fd)   // closed without a byte
        default:
            // A head promising 4 KiB, a few bytes of it, then the connection is gone.
            _ = write(fd, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{\"page_no\":1,\"pages\":[".utf8))
            finish(fd)
        }
    }

    /// Waits for the panel to close the connection (true: readable, at EOF), or `slowHold` to
    /// pass (false). Trickling, it sends the head of a long answer and then a byte every 50 ms.
    private func panelGaveUp(_ fd: Int32, trickling: Bool) -> Bool {
        let deadline = Date().addingTimeInterval(slowHold)
        if trickling {
            _ = write(fd, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n".utf8))
        }
        while Date() < deadline {
            var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let wait = trickling ? 50 : Int32(deadline.timeIntervalSinceNow * 1000)
            if Glibc.poll(&poll, 1, max(1, wait)) != 0 { return true }
            if trickling && !write(fd, [UInt8(ascii: " ")]) { return true }
        }
        return trickling   // a trickled answer cannot be followed by another one
    }

    /// Answers true when the connection stays usable after the garbage.
    private func sendGarbage(_ fd: Int32, turn: Int) -> Bool {
        func valid(_ body: String) -> Bool {
            write(fd, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
        }
        switch turn % 7 {
        case 0:
            _ = write(fd, Array("SSH-2.0-OpenSSH_9.6\r\n".utf8))
            return false
        case 1:
            _ = write(fd, Array("HTTP/1.1 200 OK\r\nContent-Length: twelve\r\n\r\n".utf8))
            return false
        case 2:
            // Header lines until the panel stops reading (1 MiB at most).
            var head = Array("HTTP/1.1 200 OK\r\n".utf8)
            for i in 0..<16_384 { head += Array("X-Junk-\(i): \(String(repeating: "a", count: 48))\r\n".utf8) }
            _ = write(fd, head)
            return false
        case 3:
            // 30 MiB of JSON-looking bytes, which the panel should refuse by their declared length
            // (buffered, they left its RSS ~50 MiB higher for good). Sent until it stops reading.
            _ = write(fd, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(30 << 20)\r\n\r\n".utf8)
                      + [UInt8](repeating: UInt8(ascii: "["), count: 30 << 20))
            return false
        case 4: return valid("<html><body><h1>502 Bad Gateway</h1></body></html>")
        case 5: return valid("{\"page_no\":1,\"pages\":[{\"id\":")
        default: return valid("{\"hello\":\"world\"}")
        }
    }

    // MARK: HTTP

    /// One request from the panel: its head and a `Content-Length` body (the panel's client
    /// never sends chunked bodies). Nil at EOF, on an error, or for anything over 32 MiB.
    private func readRequest(_ fd: Int32, _ buffer: inout [UInt8]) -> [UInt8]? {
        var headEnd: Int?
        var total: Int?
        while true {
            if headEnd == nil, let end = Self.find([13, 10, 13, 10], in: buffer) {
                headEnd = end + 4
                let head = String(decoding: buffer[..<end], as: UTF8.self).lowercased()
                let length = head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                total = end + 4 + length
            }
            if let total, buffer.count >= total {
                let request = Array(buffer[..<total])
                buffer.removeFirst(total)
                return request
            }
            guard buffer.count < 32 << 20 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// Passes the request to the backend (asking it to close after answering, so its answer ends
    /// at EOF) and writes the answer back with a `Content-Length` of its own.
    private func forward(_ request: [UInt8], to fd: Int32) -> Bool {
        guard let lineEnd = Self.find([13, 10], in: request) else { return false }
        var rewritten = Array(request[..<(lineEnd + 2)])
        rewritten += Array("Connection: close\r\n".utf8)
        rewritten += request[(lineEnd + 2)...]
        let answer: TestResponse
        do {
            answer = try TestBrowser.parse(try Self.exchange(port: backendPort, rewritten))
        } catch {
            return write(fd, Array("HTTP/1.1 503 Backend Down\r\nContent-Length: 0\r\n\r\n".utf8))
        }
        var head = "HTTP/1.1 \(answer.status) Forwarded\r\n"
        for (name, value) in answer.headers
        where !["content-length", "transfer-encoding", "connection", "keep-alive"].contains(name.lowercased()) {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(answer.body.count)\r\n\r\n"
        return write(fd, Array(head.utf8) + Array(answer.body))
    }

    private static func exchange(port: Int, _ bytes: [UInt8]) throws -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0, writeAll(fd, bytes) else { throw POSIXError(.ECONNREFUSED) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            received.append(contentsOf: chunk[..<n])
        }
        return received
    }

    private func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool { Self.writeAll(fd, bytes) }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { start in
            needle.indices.allSatisfy { bytes[start + $0] == needle[$0] }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
