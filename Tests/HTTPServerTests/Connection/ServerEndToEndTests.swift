import Foundation
import HTTPClient
import Testing
import TestSupport
@testable import HTTPServer

/// `/json` answers a small JSON body; `/stream` a body of unknown length (100,011 bytes).
func streamRouter() -> Router<BasicRequestContext> {
    var r = Router()
    r.get("/json") { _ in .json(Data("{\"ok\":true}".utf8)) }
    r.get("/stream") { _ in
        HTTPResponse(body: .stream(AsyncThrowingStream { continuation in
            for piece in ["alpha ", "beta ", String(repeating: "g", count: 100_000)] { continuation.yield(Data(piece.utf8)) }
            continuation.finish()
        }))
    }
    return r
}

func echoRouter() -> Router<BasicRequestContext> {
    var r = Router()
    r.get("/hello/{name}") { req in .text("hello \(req.pathParameters["name"]!)") }
    r.post("/echo") { req in .text(String(decoding: try await req.body.collect(), as: UTF8.self)) }
    r.post("/small", bodyLimit: 10) { req in .text("got \(try await req.body.collect().count)") }
    r.post("/ignore") { _ in .text("ignored") }
    r.post("/form") { req in
        let form = try await req.urlencodedForm()
        return .text("\(form["a"] ?? "-")|\(form.all("b").joined(separator: ","))")
    }
    return r
}

@Suite(.serialized, .awaitsTeardown) struct ServerEndToEndTests {
    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        try await withServer(echoRouter()) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            for name in ["a", "b", "c"] {
                try await client.send("GET /hello/\(name) HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try await client.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "hello \(name)")
                #expect(response.header("Date") != nil)
                #expect(response.header("Connection") == nil)
            }
        }
    }

    /// A handler looked (the file was there) and answered with the file; by the time the server
    /// opens it, it is gone — a delete racing a read. That is a 404 on a connection that stays
    /// usable, not a 500; a path that is not a readable file is still a 500.
    @Test func aFileDeletedAfterTheHandlerChoseItIs404() async throws {
        let folder = NSTemporaryDirectory() + "/vanished-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/thumb.png"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("png".utf8)))
        var router = Router()
        router.get("/thumb") { _ in
            var response = HTTPResponse(body: .file(path: path))
            response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
            unlink(path)   // the delete wins the race
            return response
        }
        router.get("/folder") { _ in HTTPResponse(body: .file(path: folder)) }
        try await withServer(router) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("GET /thumb HTTP/1.1\r\nHost: x\r\n\r\n")
            let gone = try await client.readResponse()
            #expect(gone.status == 404)
            #expect(gone.header("Cache-Control") == nil)   // a 404 must not be cached for a year
            try await client.send("HEAD /thumb HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse(head: true).status == 404)
            try await client.send("GET /folder HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().status == 500)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withServer(echoRouter()) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("GET /hello/1 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nabcde"
                + "GET /hello/3 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "hello 1")
            #expect(try await client.readResponse().text == "abcde")
            #expect(try await client.readResponse().text == "hello 3")
        }
    }

    @Test func chunkedBodyAndForm() async throws {
        try await withServer(echoRouter()) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
            #expect(try await client.readResponse().text == "abcde")
            let form = "a=x+y%21&b=1&b=2"
            try await client.send("POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(form.utf8.count)\r\n\r\n\(form)")
            #expect(try await client.readResponse().text == "x y!|1,2")
        }
    }

    @Test func bodyOverRouteLimitGets413AndClose() async throws {
        try await withServer(echoRouter()) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 413)
            #expect(response.header("Connection") == "close")
            #expect(await client.readsEOF())
        }
    }

    @Test func anAppRendersItsOwn413WithoutTheHandlerRunningOrTheBodyBeingRead() async throws {
        var router = Router()
        let handlerRuns = Locked(0)
        router.post("/upload", bodyLimit: 10) { _ in
            handlerRuns.withLock { $0 += 1 }
            return .text("stored")
        }
        router.use { request, next in
            var response = try await next(request)
            response.headers["X-Seen-By-Middleware"] = "yes"
            return response
        }
        router.payloadTooLargeHandler = { request, _ in
            .json(Data(#"{"code":413,"route":"\#(request.routeTemplate ?? "-")","body":\#(try await request.body.collect().count)}"#.utf8), status: 400)
        }
        try await withServer(router) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            // Expect: 100-continue must not invite the body either.
            try await client.send("POST /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5000000\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 413)   // whatever status the app's renderer chose
            #expect(response.text == #"{"code":413,"route":"/upload","body":0}"#)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("X-Seen-By-Middleware") == "yes")
            #expect(response.header("Connection") == "close")
            #expect(await client.readsEOF())

            // Unknown paths keep the server's own plain 413; a body within the limit is served.
            let other = try await RawHTTPClient.connect(port: port)
            try await other.send("POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n\r\n")
            #expect(try await other.readResponse().status == 413)
            let fine = try await RawHTTPClient.connect(port: port)
            try await fine.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
            #expect(try await fine.readResponse().text == "stored")
        }
        #expect(handlerRuns.withLock { $0 } == 1)
    }

    /// Handlers as tasks on the connection's event loop: bodies, pipelining and a handler that
    /// awaits another event loop (the HTTP client) all still work.
    @Test func handlersRunningOnTheEventLoop() async throws {
        try await withServer(streamRouter()) { _, upstreamPort in
            var router = echoRouter()
            let client = HTTPClient()
            router.get("/proxy") { _ in
                let upstream = try await client.send(method: "GET", url: URL(string: "http://127.0.0.1:\(upstreamPort)/json")!,
                                                     headers: [], body: nil, timeout: .seconds(10))
                return .json(upstream.body)
            }
            try await withServer(router, handlersOnLoops: true) { _, port in
                let raw = try await RawHTTPClient.connect(port: port)
                try await raw.send("GET /proxy HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                    + "GET /hello/z HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await raw.readResponse().text == "{\"ok\":true}")
                #expect(try await raw.readResponse().text == "abc")
                #expect(try await raw.readResponse().text == "hello z")
            }
        }
    }

    @Test func streamedResponsesAreChunkedOrCloseDelimited() async throws {
        try await withServer(streamRouter()) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            let chunked = try await client.readResponse()
            #expect(chunked.header("Transfer-Encoding") == "chunked" && chunked.body.count == 100_011)
            try await client.send("HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try await client.readResponse(head: true)
            #expect(head.status == 200 && head.header("Content-Length") == nil)
            try await client.send("GET /json HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "{\"ok\":true}")   // still in step after HEAD

            let old = try await RawHTTPClient.connect(port: port)
            try await old.send("GET /stream HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let delimited = try await old.readResponse()
            #expect(delimited.header("Connection") == "close" && delimited.header("Transfer-Encoding") == nil)
            #expect(delimited.body.count == 100_011)
        }
    }

    @Test func http10ClosesUnlessKeepAlive() async throws {
        try await withServer(echoRouter()) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("GET /hello/x HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let first = try await client.readResponse()
            #expect(first.header("Connection") == "keep-alive")
            try await client.send("GET /hello/y HTTP/1.0\r\n\r\n")
            let second = try await client.readResponse()
            #expect(second.text == "hello y" && second.header("Connection") == "close")
            #expect(await client.readsEOF())
        }
    }
}

@Suite(.serialized, .awaitsTeardown) struct UploadEndToEndTests {
    /// A 4 MiB body to a handler that starts reading late: the server stops reading at its
    /// high-water mark, resumes as the handler catches up, and every byte arrives in order.
    @Test func slowReaderGetsTheWholeBodyThroughBackPressure() async throws {
        let paused = Locked(false)
        var router = Router()
        router.post("/upload", bodyLimit: 16 << 20) { request in
            // Read nothing until the server has stopped reading at its high-water mark.
            let reachedHighWater = await eventually { request.body.isReadingPaused }
            paused.withLock { $0 = reachedHighWater }
            var count = 0
            var checksum: UInt64 = 0
            for try await piece in request.body.chunks() {
                for byte in piece { checksum = checksum &* 31 &+ UInt64(byte) }
                count += piece.count
            }
            return .text("\(count) \(checksum)")
        }
        let payload = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        var expected: UInt64 = 0
        for byte in payload { expected = expected &* 31 &+ UInt64(byte) }
        try await withServer(router) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(payload.count)\r\n\r\n")
            try await client.send(payload)
            #expect(try await client.readResponse().text == "\(payload.count) \(expected)")
            #expect(paused.withLock { $0 }, "the server never paused reading")
        }
    }

    @Test func multipartUploadOverTheWireIsSpooledAndCleanedUp() async throws {
        let spooled = Locked<[String]>([])
        var router = Router()
        router.post("/products", bodyLimit: 16 << 20) { request in
            let form = try await request.multipartForm(limits: MultipartLimits(spoolThreshold: 64 * 1024))
            var sizes: [String] = []
            for file in form.files {
                if case .spooled(let path) = file.storage { spooled.withLock { $0.append(path) } }
                sizes.append("\(file.filename)=\(try file.data().count)")
            }
            return .text("\(form.fields["name"] ?? "-") \(sizes.joined(separator: ","))")
        }
        var b = MultipartBuilder()
        b.field("name", "Tea")
        b.file("images", filename: "big.jpg", type: "image/jpeg", [UInt8](repeating: 0xFF, count: 3 << 20))
        b.file("images", filename: "small.png", type: "image/png", [1, 2, 3])
        b.file("images", filename: "", [])
        b.close()
        try await withServer(router) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            try await client.send("POST /products HTTP/1.1\r\nHost: x\r\nContent-Type: \(b.contentType)\r\nContent-Length: \(b.body.count)\r\n\r\n")
            try await client.send(b.body)
            let response = try await client.readResponse()
            #expect(response.text == "Tea big.jpg=\(3 << 20),small.png=3")
        }
        let paths = spooled.withLock { $0 }
        #expect(paths.count == 1)
        #expect(paths.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
    }
}
