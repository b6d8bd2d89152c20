import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-connection HTTP server on 127.0.0.1 (ephemeral port) for the URLSession transport tests:
/// it records the raw request and answers with canned bytes. Blocking calls run on a Dispatch
/// thread, never on Swift concurrency's cooperative pool; every socket has a 30 s deadline so a
/// broken test fails instead of hanging.
final class LoopbackServer: Sendable {
    let port: Int
    private let listener: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 8) == 0 else { close(listener); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Self.setDeadline(listener, seconds: 30)
    }

    deinit { close(listener) }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Accepts one connection, reads one request (head + Content-Length body), answers `response`
    /// and closes. Returns the raw request bytes. The blocking calls run on a thread of their own:
    /// a global dispatch queue would hold one of the Swift concurrency pool's threads on Linux.
    func serveOnce(response: Data) async -> Data {
        let listener = listener
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { continuation.resume(returning: Data()); return }
                Self.setDeadline(connection, seconds: 30)
                let request = Self.readRequest(connection)
                response.withUnsafeBytes { bytes in
                    var sent = 0
                    while sent < bytes.count {
                        let n = send(connection, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                        if n <= 0 { break }
                        sent += n
                    }
                }
                close(connection)
                continuation.resume(returning: request)
            }
        }
    }

    private static func readRequest(_ connection: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let headEnd = data.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: data[..<headEnd.lowerBound], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n")
                    .first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if data.count - headEnd.upperBound >= length { return data }
            }
            let n = recv(connection, &buffer, buffer.count, 0)
            if n <= 0 { return data }
            data.append(contentsOf: buffer[0..<n])
        }
    }

    private static func setDeadline(_ socket: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// A loopback port nobody listens on (bound, then closed).
    static func closedPort() throws -> Int {
        let server = try LoopbackServer()
        return server.port
    }
}
