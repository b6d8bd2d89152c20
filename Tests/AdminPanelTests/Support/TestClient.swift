import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif
#if canImport(CDispatch)
import CDispatch
#endif

/// One HTTP answer as the tests see it.
struct TestResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    func headers(_ name: String) -> [String] { headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1) }
}

struct TestClientFailure: Error, CustomStringConvertible { var description: String }

/// A small browser for route tests: real HTTP/1.1 over a socket (one connection per request),
/// no redirect following, and a cookie jar. Blocking socket work runs on a thread of its own
/// (`offPool`), never on a global dispatch queue: on Linux those share their
/// threads with the Swift concurrency pool (as wide as the CPU count) that the in-process
/// panels' handlers, and every other test's tasks, need.
final class TestBrowser: @unchecked Sendable {
    let port: Int
    private let lock = NSLock()
    private var jar: [String: String] = [:]
    /// Sent as `Origin` on POSTs, like a browser does for same-origin forms.
    var origin: String?
    /// The `Host` header (default `127.0.0.1:PORT`); a rebinding page would send its own name.
    var host: String?
    /// Seconds a request may take (sending, then waiting for the whole answer) before it fails.
    var timeout = 60

    init(port: Int) {
        self.port = port
        origin = "http://127.0.0.1:\(port)"
    }

    var cookies: [String: String] { lock.withLock { jar } }
    func setCookie(_ name: String, _ value: String?) { lock.withLock { jar[name] = value } }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> TestResponse {
        try await send("GET", path, headers: headers, body: nil)
    }

    func post(_ path: String, form: [(String, String)], headers: [(String, String)] = []) async throws -> TestResponse {
        let body = form.map { Self.formEncode($0.0) + "=" + Self.formEncode($0.1) }.joined(separator: "&")
        return try await send("POST", path, headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers,
                              body: Data(body.utf8))
    }

    struct FilePart { var name = "images"; var filename: String; var type = "application/octet-stream"; var data: Data }

    func postMultipart(_ path: String, fields: [(String, String)], files: [FilePart],
                       headers: [(String, String)] = []) async throws -> TestResponse {
        let boundary = "----test\(UUID().uuidString)"
        var body = Data()
        for (name, value) in fields {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
        }
        for file in files {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\nContent-Type: \(file.type)\r\n\r\n".utf8))
            body.append(file.data)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return try await send("POST", path, headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")] + headers,
                              body: body)
    }

    func send(_ method: String, _ path: String, headers: [(String, String)], body: Data?) async throws -> TestResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        let cookieHeader = cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")
        if !cookieHeader.isEmpty { head += "Cookie: \(cookieHeader)\r\n" }
        if method == "POST", let origin, !headers.contains(where: { $0.0.lowercased() == "origin" }) {
            head += "Origin: \(origin)\r\n"
        }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body, !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        var request = Data(head.utf8)
        if let body { request.append(body) }
        let bytes = request
        let port = self.port, timeout = self.timeout
        let response = try await offPool { try Self.exchange(port: port, bytes: bytes, timeout: timeout) }
        for value in response.headers("Set-Cookie") {
            let pair = value.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            let expired = value.contains("Max-Age=0")
            setCookie(String(pair[0]), expired ? nil : String(pair[1]))
        }
        return response
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// Sends the bytes, reads until the server closes, parses one response.
    private static func exchange(port: Int, bytes: Data, timeout seconds: Int) throws -> TestResponse {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestClientFailure(description: "socket failed") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestClientFailure(description: "connect to \(port) failed") }
        // The server may answer (413) and close before the whole body is sent: stop sending then.
        var offset = 0
        let raw = [UInt8](bytes)
        while offset < raw.count {
            let n = raw[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            offset += n
        }
        var received = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            received.append(contentsOf: chunk[0..<n])
        }
        return try parse(received)
    }

    /// One whole response (read until the server closed), with a chunked body decoded.
    static func parse(_ bytes: [UInt8]) throws -> TestResponse {
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }) else {
            throw TestClientFailure(description: "no response head in \(bytes.count) bytes")
        }
        var lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw TestClientFailure(description: "bad status line") }
        let headers = lines.map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1].drop { $0 == " " }) : "")
        }
        var body = Array(bytes[(end + 4)...])
        let response = TestResponse(status: status, headers: headers, body: Data())
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            var decoded = [UInt8]()
            var index = 0
            while let lineEnd = (index..<max(index, body.count - 1)).first(where: { body[$0] == 13 && body[$0 + 1] == 10 }) {
                let size = Int(String(decoding: body[index..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
                if size == 0 { break }
                decoded.append(contentsOf: body[(lineEnd + 2)..<min(body.count, lineEnd + 2 + size)])
                index = lineEnd + 2 + size + 2
            }
            body = decoded
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }), length <= body.count {
            body = Array(body[0..<length])
        }
        return TestResponse(status: status, headers: headers, body: Data(body))
    }
}

extension TestResponse {
    /// The value of `<input … name="NAME" … value="…">` (first match), unescaped for &amp; etc.
    func inputValue(_ name: String) -> String? {
        let page = text
        guard let nameRange = page.range(of: "name=\"\(name)\"") else { return nil }
        let tagStart = page[..<nameRange.lowerBound].lastIndex(of: "<") ?? page.startIndex
        let tagEnd = page[nameRange.upperBound...].firstIndex(of: ">") ?? page.endIndex
        let tag = page[tagStart..<tagEnd]
        guard let valueStart = tag.range(of: "value=\"") else { return nil }
        let rest = tag[valueStart.upperBound...]
        guard let quote = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<quote]).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    func count(of needle: String) -> Int { text.components(separatedBy: needle).count - 1 }
}

