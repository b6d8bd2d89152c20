import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A response read byte for byte, so tests can check exactly what went over the wire.
struct RawResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
}

/// A deliberately dumb HTTP/1.1 client over a plain socket: sends exactly the bytes given
/// (plus nothing), one request per connection, and reads the answer until the server closes.
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func send(port: Int, method: String, path: String, headers: [(String, String)] = [],
                     body: Data? = nil) async throws -> RawResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return try await send(port: port, bytes: Data(head.utf8) + (body ?? Data()))
    }

    /// Blocking socket calls run on a thread of their own: on Linux the global and concurrent
    /// dispatch queues share the Swift concurrency pool (as wide as the CPU count), which the
    /// server in the same process needs to answer.
    static func send(port: Int, bytes: Data) async throws -> RawResponse {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try exchange(port: port, bytes: bytes) })
            }
        }
    }

    private static func exchange(port: Int, bytes: Data) throws -> RawResponse {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket failed") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect failed: \(errno)") }

        // Write what the server lets us write; a server that refuses early (413) may close first.
        bytes.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let result = Glibc.send(descriptor, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                if result <= 0 { if errno == EINTR { continue }; break }
                sent += result
            }
        }
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            received.append(contentsOf: chunk[0..<count])
        }
        return try parse(received)
    }

    static func parse(_ data: Data) throws -> RawResponse {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "no complete response head in \(data.count) bytes")
        }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line \(lines[0])")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var body = Data(data[end.upperBound...])
        let response = RawResponse(status: status, headers: headers, body: body)
        if response.header("transfer-encoding")?.lowercased() == "chunked" {
            body = try dechunk(body)
        } else if let length = response.header("content-length").flatMap(Int.init) {
            guard body.count >= length else { throw Failure(description: "body shorter than Content-Length") }
            body = body.prefix(length)
        }
        return RawResponse(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ data: Data) throws -> Data {
        var result = Data()
        var index = data.startIndex
        while true {
            guard let lineEnd = data[index...].range(of: Data("\r\n".utf8)) else { throw Failure(description: "bad chunk") }
            let sizeText = String(decoding: data[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText, radix: 16) else { throw Failure(description: "bad chunk size") }
            index = lineEnd.upperBound
            if size == 0 { return result }
            result.append(data[index..<(index + size)])
            index += size + 2
        }
    }
}
