import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// Behaves like a TLS transport without the cryptography: it keeps what it accepted in a buffer
/// of its own (`wantsWritable`), sends at most 1,000 bytes per flush, and cannot `sendfile`.
final class BufferingTransport: ConnectionTransport {
    let fd: Int32
    private var pending: [UInt8] = []
    let handshakeNeverEnds: Bool

    init(fd: Int32, handshakeNeverEnds: Bool = false) {
        self.fd = fd
        self.handshakeNeverEnds = handshakeNeverEnds
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportResult {
        let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if n > 0 { return handshakeNeverEnds ? .wouldBlock : .bytes(n) }
        if n == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed(errno)
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> TransportResult {
        guard pending.count < 4096 else { return .wouldBlock }
        let n = min(bytes.count, 4096)
        pending.append(contentsOf: bytes[0..<n])
        return .bytes(n)
    }

    var canSendFile: Bool { false }
    var wantsWritable: Bool { !pending.isEmpty }
    var isHandshaking: Bool { handshakeNeverEnds }

    func flushPending() -> TransportResult {
        while !pending.isEmpty {
            let n = pending.withUnsafeBytes { send(fd, $0.baseAddress, min($0.count, 1000), Int32(MSG_NOSIGNAL)) }
            if n < 0 { return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed(errno) }
            pending.removeFirst(n)
        }
        return .done
    }

    func close() { Glibc.close(fd) }
}

@Suite(.serialized, .awaitsTeardown) struct ConnectionTransportTests {
    @Test func requestsAndFilesGoThroughABufferingTransport() async throws {
        let path = NSTemporaryDirectory() + "/transport-file-\(UUID().uuidString)"
        let content = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try content.write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        var router = echoRouter()
        router.get("/file") { _ in HTTPResponse(body: .file(path: path)) }
        router.get("/stream") { _ in
            HTTPResponse(body: .stream(AsyncThrowingStream { c in
                for i in 0..<50 { c.yield(Data(repeating: UInt8(65 + i % 26), count: 5000)) }
                c.finish()
            }))
        }
        try await withServer(router, transport: { BufferingTransport(fd: $0) }) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("GET /file HTTP/1.1\r\nHost: x\r\n\r\n")
            let file = try await client.readResponse()
            #expect(file.status == 200)
            #expect(file.body == content)
            let big = String(repeating: "z", count: 200_000)
            try await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(big.utf8.count)\r\n\r\n" + big)
            #expect(try await client.readResponse().text == big)
            try await client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().body.count == 250_000)
        }
    }

    @Test func aStalledHandshakeHitsTheHeaderDeadline() async throws {
        var limits = shortDeadlines()
        limits.idleTimeout = .seconds(60)   // so only the header deadline can close it in time
        try await withServer(echoRouter(), limits: limits,
                             transport: { BufferingTransport(fd: $0, handshakeNeverEnds: true) }) { server, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("GET /hello/x HTTP/1.1\r\nHost: x\r\n\r\n")   // swallowed: never a request
            #expect(await eventually { server.openConnections == 1 })
            #expect(await client.readsEOF())   // closed at the header deadline, not the idle one
            #expect(await eventually { server.openConnections == 0 })
        }
    }

    @Test func aFailingFactoryClosesTheSocket() async throws {
        struct Refused: Error {}
        try await withServer(echoRouter(), transport: { _ in throw Refused() }) { server, port in
            let client = try await RawHTTPClient.connect(port: port)
            #expect(await client.readsEOF())
            #expect(await eventually { server.openConnections == 0 })
        }
    }
}
