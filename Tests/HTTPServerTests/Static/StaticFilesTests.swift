import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// A temporary tree: root/{a.txt, app.css, logo.svg, sub/b.js, .env, escape -> ../secret.txt} and secret.txt beside root.
final class StaticTree: @unchecked Sendable {
    let base: URL
    let root: URL

    init() throws {
        base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("static-\(UUID().uuidString)")
        root = base.appendingPathComponent("Public")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("hello file".utf8).write(to: root.appendingPathComponent("a.txt"))
        try Data("body{}".utf8).write(to: root.appendingPathComponent("app.css"))
        try Data("<svg/>".utf8).write(to: root.appendingPathComponent("logo.svg"))
        try Data("let x".utf8).write(to: root.appendingPathComponent("sub/b.js"))
        try Data("SECRET=1".utf8).write(to: root.appendingPathComponent(".env"))
        try Data("top secret".utf8).write(to: base.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("escape").path,
                                                   withDestinationPath: "../secret.txt")
    }

    deinit { try? FileManager.default.removeItem(at: base) }

    func router() throws -> Router<BasicRequestContext> {
        let files = try StaticFiles(root: root)
        var r = Router()
        r.get("/static/{path...}") { req in files.response(for: req.pathParameters["path"] ?? "", request: req) }
        return r
    }
}

@Suite(.serialized, .awaitsTeardown) struct StaticFilesTests {
    @Test func servesFilesWithTypeETagAnd304() async throws {
        let tree = try StaticTree()
        try await withServer(try tree.router()) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("GET /static/a.txt HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = try await client.readResponse()
            #expect(first.status == 200 && first.text == "hello file")
            #expect(first.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(first.header("Cache-Control") == "public, max-age=3600")
            let etag = try #require(first.header("ETag"))
            #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
            // Last-Modified: the file's modification time, as an IMF-fixdate.
            let modified = try FileManager.default.attributesOfItem(atPath: tree.root.appendingPathComponent("a.txt").path)[.modificationDate] as! Date
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            #expect(first.header("Last-Modified") == formatter.string(from: modified))
            try await client.send("GET /static/a.txt HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"other\", \(etag)\r\n\r\n")
            let cached = try await client.readResponse()
            #expect(cached.status == 304 && cached.body.isEmpty && cached.header("ETag") == etag)
            #expect(cached.header("Last-Modified") == first.header("Last-Modified"))
            try await client.send("HEAD /static/sub/b.js HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try await client.readResponse(head: true)
            #expect(head.header("Content-Length") == "5")
            #expect(head.header("Content-Type") == "text/javascript; charset=utf-8")
            try await client.send("GET /static/app.css HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().header("Content-Type") == "text/css; charset=utf-8")
        }
    }

    @Test func etagChangesWhenTheFileChanges() throws {
        let tree = try StaticTree()
        let files = try StaticFiles(root: tree.root)
        let request = try HTTPRequest(target: "/static/a.txt")
        let before = files.response(for: "a.txt", request: request).headers["ETag"]
        try Data("changed content".utf8).write(to: tree.root.appendingPathComponent("a.txt"))
        let after = files.response(for: "a.txt", request: request)
        #expect(after.headers["ETag"] != before)
        #expect(after.bodyData == Data("changed content".utf8))
    }

    static let traversals = [
        "/static/../secret.txt", "/static/sub/../../secret.txt", "/static/%2e%2e/secret.txt",
        "/static/%2E%2E%2Fsecret.txt", "/static/..%2fsecret.txt", "/static/sub%2f..%2f..%2fsecret.txt",
        "/static/..%5csecret.txt", "/static/sub\\..\\..\\secret.txt", "/static/a.txt%00.png",
        "/static/%252e%252e/secret.txt", "/static/escape", "/static/.env", "/static/sub/", "/static/sub",
        "/static/", "/static//etc/passwd", "/static/./a.txt", "/static/nothing.txt",
    ]

    @Test func traversalAttemptsNeverEscapeTheRoot() async throws {
        let tree = try StaticTree()
        try await withServer(try tree.router()) { _, port in
            for target in Self.traversals {
                // A fresh connection each time: a target that does not decode is a 400 that closes.
                let client = try await RawHTTPClient.connect(port: port)
                try await client.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try await client.readResponse()
                #expect(response.status == 404 || (response.status == 400 && target.contains("%00")), "\(target)")
                #expect(!response.text.contains("secret") && !response.text.contains("SECRET"), "\(target)")
            }
        }
    }

    @Test func onlyGetAndHead() async throws {
        let tree = try StaticTree()
        let files = try StaticFiles(root: tree.root)
        let post = files.response(for: "a.txt", request: try HTTPRequest(method: "POST", target: "/static/a.txt"))
        #expect(post.status == 405 && post.headers["Allow"] == "GET, HEAD")
        #expect(throws: (any Error).self) { try StaticFiles(root: tree.root.appendingPathComponent("a.txt")) }
    }

    @Test func contentTypes() {
        let expected = ["css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml",
                        "png": "image/png", "jpg": "image/jpeg", "webp": "image/webp", "gif": "image/gif",
                        "ico": "image/x-icon", "html": "text/html; charset=utf-8", "json": "application/json",
                        "txt": "text/plain; charset=utf-8", "woff2": "font/woff2", "exe": "application/octet-stream"]
        for (ext, type) in expected { #expect(MediaTypes.forExtension(ext) == type) }
    }
}

@Suite struct HeaderAndCookieTests {
    @Test func headersAreCaseInsensitiveOrderedAndClean() {
        var headers = HTTPHeaders([("Content-Type", "text/html"), ("X-A", "1")])
        headers.add("x-a", "2")
        #expect(headers["content-type"] == "text/html")
        #expect(headers.values("X-a") == ["1", "2"])
        headers["X-A"] = "3"
        #expect(headers.values("x-a") == ["3"])
        headers.add("Location", "/a\r\nSet-Cookie: evil=1\0")
        #expect(headers["Location"] == "/aSet-Cookie: evil=1")
        headers.add("Bad Name", "x")
        headers.add("Bad\r\nName", "x")
        #expect(!headers.contains("Bad Name") && headers.count == 3)
        headers.remove("X-A")
        #expect(headers["x-a"] == nil)
    }

    @Test func responseHeadNeverCarriesLineBreaks() {
        var response = HTTPResponse.redirect(to: "/next\r\nX-Injected: 1")
        response.headers.add("X-Other", "a\nb")
        let head = String(decoding: ResponseHead.serialize(status: response.status, headers: response.headers,
                                                           length: .known(0), keepAlive: true, version: "HTTP/1.1",
                                                           date: "Sun, 22 Nov 2026 00:00:00 GMT"), as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 303 See Other\r\nDate: Sun, 22 Nov 2026 00:00:00 GMT\r\n"))
        #expect(head.contains("Location: /nextX-Injected: 1\r\n"))
        #expect(head.contains("X-Other: ab\r\n"))
        #expect(head.components(separatedBy: "\r\n").count == 7)   // 5 lines, the blank line, the empty rest
        let odd = String(decoding: ResponseHead.serialize(status: 1000, headers: HTTPHeaders(), length: .known(0),
                                                          keepAlive: false, version: "HTTP/1.1", date: "d"), as: UTF8.self)
        #expect(odd.hasPrefix("HTTP/1.1 500 Internal Server Error\r\n") && odd.contains("Connection: close\r\n"))
    }

    @Test func cookiesParseAndSetSafely() throws {
        let request = try HTTPRequest(target: "/", headers: HTTPHeaders([("Cookie", "a=1; b=\"two\"; a=ignored; bad name=x"),
                                                                         ("Cookie", "c=3")]))
        #expect(request.cookies == ["a": "1", "b": "two", "c": "3"])
        var response = HTTPResponse.text("ok")
        response.setCookie(SetCookie(name: "session", value: "abc;Domain=evil\r\n", maxAge: 3600))
        response.setCookie(SetCookie(name: "flash", value: "x", sameSite: .lax, secure: true))
        response.setCookie(.expired("old"))
        let cookies = response.headers.values("Set-Cookie")
        #expect(cookies[0] == "session=abc%3BDomain=evil%0D%0A; Path=/; Max-Age=3600; HttpOnly; SameSite=Strict")
        #expect(cookies[1] == "flash=x; Path=/; HttpOnly; Secure; SameSite=Lax")
        #expect(cookies[2] == "old=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict")
    }

    @Test func requestTargetDecodesOnce() throws {
        let request = try HTTPRequest(target: "/a%20b/%2541?q=a+b%26c&q=2&flag")
        #expect(request.path == "/a b/%41")
        #expect(request.query == ["q": "a b&c", "flag": ""])
        #expect(request.queryItems.map(\.value) == ["a b&c", "2", ""])
        #expect(throws: HTTPError.self) { try HTTPRequest(target: "/bad%zz") }
        #expect(throws: HTTPError.self) { try HTTPRequest(target: "/nul%00") }
        #expect(throws: HTTPError.self) { try HTTPRequest(target: "relative") }
    }
}
