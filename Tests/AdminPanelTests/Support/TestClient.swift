import Foundation
import HTTPServer
import TestSupport
@testable import AdminPanel

struct TestClientFailure: Error, CustomStringConvertible { var description: String }

/// A small browser for route tests: no redirect following, and a cookie jar. Live, it speaks
/// real HTTP/1.1 through the test kit's `RawHTTPClient` (one connection per request); in-process,
/// it hands the same request to the panel's router.
final class TestBrowser: @unchecked Sendable {
    /// The port named in `Host` and `Origin` (and, live, connected to).
    let port: Int
    /// The in-process tier's door; nil: the socket on `port`.
    let router: Router<PanelContext>?
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
        router = nil
        origin = "http://127.0.0.1:\(port)"
    }

    /// In-process: requests go to `router` as the listener on `port` would hand them over.
    init(router: Router<PanelContext>, port: Int) {
        self.port = port
        self.router = router
        origin = "http://127.0.0.1:\(port)"
    }

    /// Another browser on the same panel, with a jar of its own.
    func fresh() -> TestBrowser {
        router.map { TestBrowser(router: $0, port: port) } ?? TestBrowser(port: port)
    }

    var cookies: [String: String] { lock.withLock { jar } }
    func setCookie(_ name: String, _ value: String?) { lock.withLock { jar[name] = value } }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> RawResponse {
        try await send("GET", path, headers: headers, body: nil)
    }

    func post(_ path: String, form: [(String, String)], headers: [(String, String)] = []) async throws -> RawResponse {
        let body = form.map { Self.formEncode($0.0) + "=" + Self.formEncode($0.1) }.joined(separator: "&")
        return try await send("POST", path, headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers,
                              body: Data(body.utf8))
    }

    struct FilePart { var name = "images"; var filename: String; var type = "application/octet-stream"; var data: Data }

    func postMultipart(_ path: String, fields: [(String, String)], files: [FilePart],
                       headers: [(String, String)] = []) async throws -> RawResponse {
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

    func send(_ method: String, _ path: String, headers: [(String, String)], body: Data?) async throws -> RawResponse {
        var fields: [(String, String)] = [("Host", host ?? "127.0.0.1:\(port)"), ("Connection", "close")]
        let cookieHeader = cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")
        if !cookieHeader.isEmpty { fields.append(("Cookie", cookieHeader)) }
        if method == "POST", let origin, !headers.contains(where: { $0.0.lowercased() == "origin" }) {
            fields.append(("Origin", origin))
        }
        fields += headers
        if let body, !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
            fields.append(("Content-Length", "\(body.count)"))
        }
        let response: RawResponse
        if let router {
            let request = try HTTPRequest(method: method, target: path, headers: HTTPHeaders(fields), body: RequestBody(body ?? Data()),
                                          remoteAddress: RouterExchange.remoteAddress)
            let answer = try await RouterExchange.send(request, to: router, timeoutSeconds: Double(timeout))
            response = RawResponse(status: answer.status, headers: answer.headers, body: answer.body)
        } else {
            var head = "\(method) \(path) HTTP/1.1\r\n"
            for (name, value) in fields { head += "\(name): \(value)\r\n" }
            head += "\r\n"
            var request = Data(head.utf8)
            if let body { request.append(body) }
            response = try await RawHTTPClient.exchange(port: port, bytes: Array(request), timeoutSeconds: timeout)
        }
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
}

extension RawResponse {
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

