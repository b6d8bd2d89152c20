import Foundation
import TLS
#if canImport(Glibc)
import Glibc
#endif

/// The tests' one raw HTTP/1.1 client: a blocking loopback socket, plain or TLS, that sends
/// exactly the bytes given (broken ones too) and reads exactly what comes back, so tests see
/// what is on the wire. One connection per client; several requests may go over it (kept
/// alive, pipelined), and `exchange`/`request` do one request on a connection of their own.
///
/// The async calls run the blocking socket work on a thread of its own (`offPool`): blocking one
/// of Swift concurrency's few cooperative threads would starve the servers under test in this
/// same process. The `…Now` calls block the caller (for code already on a thread of its own).
///
/// Under `Wire.$current.withValue(.tls)`, `connect(port:)` speaks TLS trusting the run's test
/// certificate, so the same test checks a server over HTTPS: the bytes sent and read are then
/// the plaintext inside.
public final class RawHTTPClient: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public let port: Int
    /// The socket, for tests that watch it themselves (a reset, a peer that stops reading).
    public let fd: Int32
    private var buffer: [UInt8] = []
    private var tls: TLSSession?
    /// The server's close_notify arrived (plaintext before it is still read).
    private var tlsClosed = false

    // MARK: Connecting

    /// A connection to 127.0.0.1:`port`, TLS when the task's `Wire` says so.
    public static func connect(port: Int, timeoutSeconds: Int = 20) async throws -> RawHTTPClient {
        let wire = Wire.current
        return try await offPool {
            try connectNow(port: port, tls: wire == .tls ? TestCertificate.clientContext : nil, timeoutSeconds: timeoutSeconds)
        }
    }

    /// A TLS connection whatever the wire (e.g. with another client context).
    public static func connectTLS(port: Int, context: TLSContext, serverName: String = "localhost",
                                  timeoutSeconds: Int = 20) async throws -> RawHTTPClient {
        try await offPool { try connectNow(port: port, tls: context, serverName: serverName, timeoutSeconds: timeoutSeconds) }
    }

    /// Blocking: connects (and shakes hands when `tls` is given). Reads and writes time out
    /// after `timeoutSeconds`, so a broken test fails instead of hanging.
    public static func connectNow(port: Int, tls: TLSContext? = nil, serverName: String = "localhost",
                                  timeoutSeconds: Int = 20) throws -> RawHTTPClient {
        let client = try RawHTTPClient(port: port, timeoutSeconds: timeoutSeconds)
        if let tls { try client.handshake(context: tls, serverName: serverName) }
        return client
    }

    private init(port: Int, timeoutSeconds: Int) throws {
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopbackAddress(port: port)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            let e = errno
            Glibc.close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port): errno \(e)")
        }
    }

    deinit { Glibc.close(fd) }

    /// The negotiated TLS version and ALPN protocol ("TLSv1.3", "http/1.1").
    public var tlsFacts: (version: String, alpn: String?)? { tls.map { ($0.protocolVersion, $0.negotiatedProtocol) } }

    // MARK: One request on a connection of its own

    /// `METHOD PATH` with `Connection: close`, the given headers, and `Content-Length` for a body.
    public static func request(port: Int, method: String, path: String, host: String? = nil,
                               headers: [(String, String)] = [], body: Data? = nil, timeoutSeconds: Int = 60) async throws -> RawResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body, !headers.contains(where: { $0.0.lowercased() == "content-length" }) { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return try await exchange(port: port, bytes: Array(head.utf8) + Array(body ?? Data()), timeoutSeconds: timeoutSeconds)
    }

    /// Sends `bytes` on a fresh connection and reads one response. A server that answers early
    /// and closes (a 413 before the whole body) may refuse the rest: its answer is still read.
    public static func exchange(port: Int, bytes: [UInt8], tls: TLSContext? = nil, timeoutSeconds: Int = 60) async throws -> RawResponse {
        try await offPool { try exchangeNow(port: port, bytes: bytes, tls: tls, timeoutSeconds: timeoutSeconds) }
    }

    /// Blocking `exchange`.
    public static func exchangeNow(port: Int, bytes: [UInt8], tls: TLSContext? = nil, timeoutSeconds: Int = 60) throws -> RawResponse {
        let client = try connectNow(port: port, tls: tls, timeoutSeconds: timeoutSeconds)
        try? client.sendNow(bytes)
        return try client.readResponseNow()
    }

    // MARK: Sending and reading

    public func send(_ text: String) async throws { try await send(Array(text.utf8)) }
    public func send(_ bytes: [UInt8]) async throws { try await offPool { try self.sendNow(bytes) } }
    public func readResponse(head: Bool = false) async throws -> RawResponse {
        try await offPool { try self.readResponseNow(head: head) }
    }
    /// True when the server closed the connection (reads EOF) without sending anything more.
    public func readsEOF() async -> Bool { (try? await offPool { self.readsEOFNow() }) ?? false }
    /// Half-closes: the server sees the end of input but can still answer.
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    public func sendNow(_ text: String) throws { try sendNow(Array(text.utf8)) }

    public func sendNow(_ bytes: [UInt8]) throws {
        if let tls {
            guard case .bytes = bytes.withUnsafeBytes({ tls.write($0) }) else { throw Failure(description: "TLS write failed") }
            try sendTLSOutput()
            return
        }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "send after \(offset) of \(bytes.count) bytes: errno \(errno)") }
            offset += n
        }
    }

    /// Reads one response. `head` skips the body (answers to HEAD requests).
    public func readResponseNow(head: Bool = false) throws -> RawResponse {
        let headEnd = try fill { find([13, 10, 13, 10], in: $0) }
        let headText = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var response = try RawResponse(head: headText)
        let status = response.status
        if head || status == 204 || status == 304 || status / 100 == 1 { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            var body: [UInt8] = []
            while true {
                let lineEnd = try fill { find([13, 10], in: $0) }
                let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                    throw Failure(description: "bad chunk size line \"\(sizeText)\"")
                }
                buffer.removeFirst(lineEnd + 2)
                _ = try fill { $0.count >= size + 2 ? size : nil }
                body += buffer[..<size]
                buffer.removeFirst(size + 2)
                if size == 0 { break }
            }
            response.body = Data(body)
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            _ = try fill { $0.count >= length ? length : nil }
            response.body = Data(buffer[..<length])
            buffer.removeFirst(length)
        } else {
            while (try? receive()) != nil {}   // the body ends where the connection does
            response.body = Data(buffer)
            buffer.removeAll()
        }
        return response
    }

    /// Reads until `marker` arrived; returns every byte up to and including it (for bodies that
    /// do not end, such as event streams).
    public func read(through marker: String) async throws -> String {
        try await offPool { try self.readNow(through: marker) }
    }

    /// Blocking `read(through:)`.
    public func readNow(through marker: String) throws -> String {
        let needle = Array(marker.utf8)
        let at = try fill { find(needle, in: $0) }
        let text = String(decoding: buffer[..<(at + needle.count)], as: UTF8.self)
        buffer.removeFirst(at + needle.count)
        return text
    }

    /// Blocking: exactly `count` bytes (more may already be buffered for the next read).
    public func readNow(count: Int) throws -> [UInt8] {
        _ = try fill { $0.count >= count ? count : nil }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Blocking: GET requests for `paths`, written all at once (pipelined), then their answers
    /// read in order.
    public func pipelineNow(_ paths: [String]) throws -> [RawResponse] {
        try sendNow(paths.map { "GET \($0) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: */*\r\n\r\n" }.joined())
        return try paths.map { _ in try readResponseNow() }
    }

    /// Blocking: the bytes that arrived within `milliseconds` (none if nothing did), kept for
    /// the next `readResponseNow`.
    public func arrivedNow(withinMilliseconds milliseconds: Int32) -> [UInt8] {
        var watch = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        if buffer.isEmpty, poll(&watch, 1, milliseconds) == 1 { try? receive() }
        return buffer
    }

    /// Blocking `readsEOF`.
    public func readsEOFNow() -> Bool {
        guard buffer.isEmpty else { return false }
        if tls != nil {
            // close_notify or a bare end of stream both count; plaintext does not.
            while buffer.isEmpty {
                do { try receiveCiphertext() } catch { return "\(error)" == "connection closed" }
            }
            return false
        }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }

    // MARK: Buffering

    /// Reads until `found` answers non-nil for the buffer.
    private func fill(_ found: ([UInt8]) -> Int?) throws -> Int {
        while true {
            if let at = found(buffer) { return at }
            try receive()
        }
    }

    /// Appends at least one byte of plaintext to the buffer, or throws.
    private func receive() throws {
        if tls != nil {
            let before = buffer.count
            while buffer.count == before {
                do { try receiveCiphertext() } catch { if buffer.count == before { throw error } }
            }
            return
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: n == 0 ? "connection closed" : "recv: errno \(errno)") }
            buffer += chunk[..<n]
            return
        }
    }

    // MARK: TLS

    private func handshake(context: TLSContext, serverName: String) throws {
        let session = try TLSSession(context: context, serverName: serverName)
        tls = session
        while true {
            let outcome = session.handshake()
            try sendTLSOutput()
            switch outcome {
            case .bytes: return
            case .wantInput: try receiveCiphertext()
            case .closed: throw Failure(description: "TLS closed during the handshake")
            case .failed(let reason): throw Failure(description: "TLS handshake failed: \(reason)")
            }
        }
    }

    private func sendTLSOutput() throws {
        guard let tls else { return }
        while tls.pendingOutputCount > 0 {
            var failure: Int32 = 0
            tls.sendOutput { bytes in
                let n = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
                if n <= 0 { failure = errno; return 0 }
                return n
            }
            if failure != 0 { throw Failure(description: "send: errno \(failure)") }
        }
    }

    /// Receives ciphertext and appends what it decrypts to the plaintext buffer.
    private func receiveCiphertext() throws {
        guard let tls else { return }
        if tlsClosed { throw Failure(description: "connection closed") }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { throw Failure(description: n == 0 ? "connection closed" : "recv: errno \(errno)") }
        var closed = false
        var failure: String?
        chunk[0..<n].withUnsafeBytes { ciphertext in
            tls.receive(ciphertext) {
                var plain = [UInt8](repeating: 0, count: 16_384)
                while true {
                    switch plain.withUnsafeMutableBytes({ tls.read(into: $0) }) {
                    case .bytes(let got): buffer += plain[0..<got]
                    case .wantInput: return
                    case .closed: closed = true; return
                    case .failed(let reason): failure = reason; return
                    }
                }
            }
        }
        try sendTLSOutput()
        if let failure { throw Failure(description: "TLS: \(failure)") }
        if closed {
            tlsClosed = true
            throw Failure(description: "connection closed")
        }
    }
}

/// 127.0.0.1:`port` as a socket address.
func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}

/// Where `needle` starts in `haystack`, if it does.
func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
        if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
    }
    return nil
}
