import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A raw HTTP/1.1 client on one kept-alive loopback connection, for the stop tests: `get` sends a
/// request and reads its answer; `pipeline` writes several requests at once and then reads their
/// answers in order. It answers the status codes it read; a connection that ends early throws.
/// Blocking: call it through `offPool`.
public final class KeepAliveClient: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible { public var description: String }

    private let fd: Int32
    private let port: Int
    private var buffer: [UInt8] = []

    public init(port: Int) throws {
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port): errno \(errno)")
        }
    }

    deinit { Glibc.close(fd) }

    /// One request, then its answer's status.
    public func get(_ path: String) throws -> Int {
        try pipeline([path])[0]
    }

    /// Writes every request at once (pipelining), then reads the answers in order.
    public func pipeline(_ paths: [String]) throws -> [Int] {
        var bytes: [UInt8] = []
        for path in paths {
            bytes += Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: */*\r\n\r\n".utf8)
        }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "send: errno \(errno)") }
            offset += n
        }
        return try paths.map { _ in try readResponse() }
    }

    private func readResponse() throws -> Int {
        let headEnd = try fill { Self.find([13, 10, 13, 10], in: $0) }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line: \(lines[0])") }
        var length = 0, chunked = false
        for line in lines.dropFirst() {
            let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard pair.count == 2 else { continue }
            if pair[0] == "content-length" { length = Int(pair[1]) ?? 0 }
            if pair[0] == "transfer-encoding" && pair[1].contains("chunked") { chunked = true }
        }
        if chunked {
            while true {
                let lineEnd = try fill { Self.find([13, 10], in: $0) }
                let size = Int(String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
                buffer.removeFirst(lineEnd + 2)
                _ = try fill { $0.count >= size + 2 ? size : nil }
                buffer.removeFirst(size + 2)
                if size == 0 { break }
            }
        } else {
            _ = try fill { $0.count >= length ? length : nil }
            buffer.removeFirst(length)
        }
        return status
    }

    /// Reads until `found` answers non-nil for the buffer.
    private func fill(_ found: ([UInt8]) -> Int?) throws -> Int {
        while true {
            if let at = found(buffer) { return at }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: n == 0 ? "the server closed the connection" : "recv: errno \(errno)") }
            buffer += chunk[..<n]
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
