import Foundation
import TestSupport
import TLS
#if canImport(Glibc)
import Glibc
#endif
#if canImport(CDispatch)
import CDispatch
#endif

/// A deliberately low-level blocking test client: it sends exact bytes (including broken ones)
/// and reads exact responses, so tests see what is on the wire.
///
/// Its socket calls block, so each runs on a Dispatch thread: blocking one of Swift
/// concurrency's few cooperative threads would starve the server's handler tasks.
///
/// Under `Wire.$current.withValue(.tls)` it speaks TLS (trusting the test certificate), so the
/// same tests check the server over HTTPS: bytes sent and read are the plaintext inside.
final class RawClient: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var tls: TLSSession?
    /// The server's close_notify arrived (plaintext before it is still read).
    private var tlsClosed = false

    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: Data
        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    static func connect(port: Int, timeoutSeconds: Int = 20) async throws -> RawClient {
        let wire = Wire.current
        return try await offPool {
            let client = try RawClient(port: port, timeoutSeconds: timeoutSeconds)
            if wire == .tls { try client.blockingHandshake(context: TestCertificate.clientContext, serverName: "localhost") }
            return client
        }
    }

    /// A TLS client on a fresh connection, whatever the wire (e.g. with another client context).
    static func connectTLS(port: Int, context: TLSContext, serverName: String = "localhost",
                           timeoutSeconds: Int = 20) async throws -> RawClient {
        try await offPool {
            let client = try RawClient(port: port, timeoutSeconds: timeoutSeconds)
            try client.blockingHandshake(context: context, serverName: serverName)
            return client
        }
    }

    /// The negotiated TLS version and ALPN protocol ("TLSv1.3", "http/1.1").
    var tlsFacts: (version: String, alpn: String?)? { tls.map { ($0.protocolVersion, $0.negotiatedProtocol) } }

    private func blockingHandshake(context: TLSContext, serverName: String) throws {
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
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { throw Failure(description: n == 0 ? "connection closed" : "recv: errno \(errno)") }
        var closed = false
        var failure: String?
        chunk[0..<n].withUnsafeBytes { ciphertext in
            tls.receive(ciphertext) {
                var plain = [UInt8](repeating: 0, count: 16384)
                while true {
                    switch plain.withUnsafeMutableBytes({ tls.read(into: $0) }) {
                    case .bytes(let got): buffer.append(contentsOf: plain[0..<got])
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

    func send(_ text: String) async throws { try await offPool { try self.blockingSend(Array(text.utf8)) } }
    func send(_ bytes: [UInt8]) async throws { try await offPool { try self.blockingSend(bytes) } }
    func readResponse(head: Bool = false) async throws -> Response {
        try await offPool { try self.blockingReadResponse(head: head) }
    }
    /// Half-closes: the server sees end of input but can still answer.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    func readsEOF() async -> Bool { (try? await offPool { self.blockingReadsEOF() }) ?? false }

    private init(port: Int, timeoutSeconds: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            let e = errno
            close(fd)
            throw Failure(description: "connect: errno \(e)")
        }
    }

    deinit { close(fd) }

    private func blockingSend(_ bytes: [UInt8]) throws {
        if let tls {
            guard case .bytes = bytes.withUnsafeBytes({ tls.write($0) }) else { throw Failure(description: "TLS write failed") }
            try sendTLSOutput()
            return
        }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send: errno \(errno)") }
            offset += n
        }
    }

    /// Reads one response. `head` skips the body (for HEAD requests).
    private func blockingReadResponse(head: Bool) throws -> Response {
        var headEnd: Int?
        while true {
            if let r = find([13, 10, 13, 10]) { headEnd = r; break }
            try fill()
        }
        let headText = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line") }
        let headers = lines.map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1].drop { $0 == " " }) : "")
        }
        let response = Response(status: status, headers: headers, body: Data())
        if head || status == 204 || status == 304 || status / 100 == 1 { return response }
        var result = response
        if let length = response.header("Content-Length").flatMap(Int.init) {
            while buffer.count < length { try fill() }
            result.body = Data(buffer[0..<length])
            buffer.removeFirst(length)
        } else if response.header("Transfer-Encoding") == "chunked" {
            var body = Data()
            while true {
                var lineEnd: Int?
                while lineEnd == nil { lineEnd = find([13, 10]); if lineEnd == nil { try fill() } }
                let size = Int(String(decoding: buffer[0..<lineEnd!], as: UTF8.self), radix: 16) ?? 0
                buffer.removeFirst(lineEnd! + 2)
                while buffer.count < size + 2 { try fill() }
                body.append(contentsOf: buffer[0..<size])
                buffer.removeFirst(size + 2)
                if size == 0 { break }
            }
            result.body = body
        } else {
            while (try? fill()) != nil {}
            result.body = Data(buffer)
            buffer.removeAll()
        }
        return result
    }

    /// True when the server closed the connection (reads EOF) without sending anything more.
    private func blockingReadsEOF() -> Bool {
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

    private func fill() throws {
        if tls != nil {
            let before = buffer.count
            while buffer.count == before {
                do { try receiveCiphertext() } catch { if buffer.count == before { throw error } }
            }
            return
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { throw Failure(description: n == 0 ? "connection closed" : "recv: errno \(errno)") }
        buffer.append(contentsOf: chunk[0..<n])
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for i in 0...(buffer.count - needle.count) where buffer[i] == needle[0] {
            if Array(buffer[i..<(i + needle.count)]) == needle { return i }
        }
        return nil
    }
}

/// How test clients and servers talk: plain HTTP, or HTTPS with the test certificate.
enum Wire: Sendable {
    case plain, tls
    @TaskLocal static var current = Wire.plain
}

/// One self-signed certificate for the whole test run (for "localhost" and 127.0.0.1).
enum TestCertificate {
    static let files: SelfSignedCertificate.Files = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpserver-tests-tls-\(getpid())")
        return try! SelfSignedCertificate.ensure(in: folder, names: ["localhost", "127.0.0.1"])
    }()
    static let serverContext = try! TLSContext.server(certificateFile: files.certificateFile, keyFile: files.keyFile)
    static let clientContext = try! TLSContext.client(trustedCertificateFiles: [files.certificateFile], systemTrust: false)
}

