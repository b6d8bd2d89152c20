import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkIO
#if canImport(Glibc)
import Glibc
#endif

/// Fetches one photo an import row names by URL: 10 s in all, the upload limit, no redirects,
/// and never an address `ImageAddress` refuses. The name is resolved here, every address it
/// resolves to is checked, and the connection goes to the checked address itself (plain HTTP
/// speaks to that socket directly), so DNS answering differently a moment later changes nothing.
/// `https://` goes through URLSession after the same check; see docs/import.md for what that
/// leaves open.
struct ImageFetcher: Sendable {
    /// Why a photo could not be fetched: `key` (and `arguments`) name the catalog text the results
    /// page shows in the reader's language; `message` is the same in English for logs and tests.
    struct Failure: Error, Equatable {
        var key: String
        var arguments: [String: String] = [:]
        var message: String

        init(_ key: String, _ arguments: [String: String] = [:], message: String) {
            self.key = "import_fetch_" + key
            self.arguments = arguments
            self.message = message
        }
    }

    var trustedOrigins: [URL]
    var maxBytes: Int
    var timeout: TimeInterval = 10

    func fetch(_ url: URL) async throws -> (filename: String, data: Data) {
        guard let host = url.host, let scheme = url.scheme?.lowercased() else { throw Failure("not_address", message: "not an address") }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let name = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let addresses = await Self.thread.run { Self.resolve(name, port: port) }
        guard !addresses.isEmpty else { throw Failure("unresolved", message: "the host name could not be resolved") }
        for address in addresses where !ImageAddress.isAllowed(address.bytes, url: url, trustedOrigins: trustedOrigins) {
            throw Failure("private", message: "the address is on a private, loopback or link-local network")
        }
        let filename = Self.filename(url)
        if scheme == "https" {
            let data = try await fetchHTTPS(url)
            return (filename, data)
        }
        let target = addresses[0]
        let deadline = Date().addingTimeInterval(timeout)
        let maxBytes = maxBytes
        let result: Result<Data, Failure> = await Self.thread.run {
            do throws(Failure) { return .success(try Self.get(url, host: host, port: port, address: target, deadline: deadline,
                                                           maxBytes: maxBytes)) } catch { return .failure(error) }
        }
        return (filename, try result.get())
    }

    /// The URL's last path component, or `photo.jpg`.
    static func filename(_ url: URL) -> String {
        let last = url.lastPathComponent
        return last.isEmpty || last == "/" ? "photo.jpg" : ImageStager.safeFilename(last)
    }

    private static let thread = BlockingThread()

    struct ResolvedAddress: Sendable {
        var family: Int32
        var bytes: [UInt8]
        var storage: sockaddr_storage
        var length: socklen_t
    }

    static func resolve(_ host: String, port: Int) -> [ResolvedAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &info) == 0 else { return [] }
        defer { freeaddrinfo(info) }
        var found: [ResolvedAddress] = []
        var cursor = info
        while let entry = cursor, found.count < 16 {
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { raw in
                raw.copyMemory(from: UnsafeRawBufferPointer(start: entry.pointee.ai_addr, count: Int(entry.pointee.ai_addrlen)))
            }
            var bytes: [UInt8] = []
            if entry.pointee.ai_family == AF_INET {
                var v4 = sockaddr_in()
                withUnsafeMutableBytes(of: &v4) { $0.copyMemory(from: UnsafeRawBufferPointer(start: entry.pointee.ai_addr, count: MemoryLayout<sockaddr_in>.size)) }
                bytes = withUnsafeBytes(of: v4.sin_addr) { Array($0) }
            } else if entry.pointee.ai_family == AF_INET6 {
                var v6 = sockaddr_in6()
                withUnsafeMutableBytes(of: &v6) { $0.copyMemory(from: UnsafeRawBufferPointer(start: entry.pointee.ai_addr, count: MemoryLayout<sockaddr_in6>.size)) }
                bytes = withUnsafeBytes(of: v6.sin6_addr) { Array($0) }
            }
            if !bytes.isEmpty {
                found.append(ResolvedAddress(family: entry.pointee.ai_family, bytes: bytes, storage: storage,
                                             length: entry.pointee.ai_addrlen))
            }
            cursor = entry.pointee.ai_next
        }
        return found
    }

    /// A blocking GET on a socket connected to `address`.
    static func get(_ url: URL, host: String, port: Int, address: ResolvedAddress, deadline: Date,
                    maxBytes: Int) throws(Failure) -> Data {
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("unreachable", message: "no socket") }
        defer { close(fd) }
        var wait = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var storage = address.storage
        let connected = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, address.length) }
        }
        guard connected == 0 else { throw Failure("unreachable", message: "the server could not be reached") }
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.fragment = nil
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw Failure("bad_characters", message: "the address has characters that cannot be sent") }
        let hostHeader = (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + (port == 80 ? "" : ":\(port)")
        let head = "GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nAccept: image/*\r\nUser-Agent: openmarket-admin\r\nConnection: close\r\n\r\n"
        let sent = head.utf8CString.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
        guard sent == head.utf8.count else { throw Failure("unreachable", message: "the request could not be sent") }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let cap = maxBytes + 64 * 1024
        while true {
            guard Date() < deadline else { throw Failure("timeout", message: "no answer within 10 seconds") }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure("timeout", message: "no answer within 10 seconds")
            }
            if count == 0 { break }
            received.append(contentsOf: buffer[0..<count])
            if received.count > cap { throw Failure("too_large", ["mib": String(maxBytes >> 20)], message: "the photo is larger than \(maxBytes >> 20) MiB") }
        }
        return try body(of: received, maxBytes: maxBytes)
    }

    /// The body of a `200` answer (Content-Length, chunked or until close); redirects refused.
    static func body(of answer: [UInt8], maxBytes: Int) throws(Failure) -> Data {
        guard let end = answer.firstRange(of: [13, 10, 13, 10]) else { throw Failure("bad_answer", message: "the answer was not HTTP") }
        let head = String(decoding: answer[..<end.lowerBound], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw Failure("bad_answer", message: "the answer was not HTTP")
        }
        if (300...399).contains(status) { throw Failure("redirect", ["status": String(status)], message: "the address redirects elsewhere (\(status)); give the photo's own address") }
        guard status == 200 else { throw Failure("status", ["status": String(status)], message: "the server answered \(status)") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(answer[end.upperBound...])
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try dechunked(body)
        } else if let length = headers["content-length"].flatMap(Int.init) {
            guard length <= body.count else { throw Failure("bad_answer", message: "the answer ended early") }
            body = Array(body[..<length])
        }
        guard body.count <= maxBytes else { throw Failure("too_large", ["mib": String(maxBytes >> 20)], message: "the photo is larger than \(maxBytes >> 20) MiB") }
        return Data(body)
    }

    static func dechunked(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = bytes[index...].firstRange(of: [13, 10]) else { throw Failure("bad_answer", message: "the answer ended early") }
            let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw Failure("bad_answer", message: "the answer was not HTTP")
            }
            if size == 0 { return out }
            let start = lineEnd.upperBound
            guard start + size <= bytes.count else { throw Failure("bad_answer", message: "the answer ended early") }
            out.append(contentsOf: bytes[start..<(start + size)])
            index = start + size + 2
        }
        throw Failure("bad_answer", message: "the answer ended early")
    }

    private func fetchHTTPS(_ url: URL) async throws -> Data {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.setValue("image/*", forHTTPHeaderField: "Accept")
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (data, response): (Data, URLResponse)
        do { (data, response) = try await session.data(for: request) } catch {
            throw Failure("unreachable", message: "the server could not be reached")
        }
        let status = (response as? HTTPURLResponse).map(\.statusCode) ?? 0
        if (300...399).contains(status) { throw Failure("redirect", ["status": String(status)], message: "the address redirects elsewhere (\(status)); give the photo's own address") }
        guard status == 200 else { throw Failure("status", ["status": String(status)], message: "the server answered \(status)") }
        guard data.count <= maxBytes else { throw Failure("too_large", ["mib": String(maxBytes >> 20)], message: "the photo is larger than \(maxBytes >> 20) MiB") }
        return data
    }

    private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest) async -> URLRequest? { nil }
    }
}
