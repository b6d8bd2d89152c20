import Foundation
import NetworkIO
import Testing
import TestSupport
@testable import HTTPServer

/// Header fields read in place from a parsed head, named by known cases, and set as blocks.
struct HTTPHeadersTests {
    static func parsedHead(_ fields: String) throws -> RequestHead {
        var parser = RequestParser()
        parser.feed(Array("GET /a?b=1 HTTP/1.1\r\n\(fields)\r\n".utf8))
        guard case .head(let head) = parser.next() else { throw HTTPError(status: 400, message: "no head") }
        return head
    }

    @Test func parsedFieldsAreReadInPlaceByAnyCaseOfTheirName() throws {
        let head = try Self.parsedHead("host: panel\r\nX-Trace:  a b \r\nCOOKIE: s=1\r\nx-trace: c\r\nOrigin: http://panel\r\n")
        #expect(head.fields != nil)
        #expect(head.headers["Host"] == "panel" && head.headers[.host] == "panel")
        #expect(head.headers["x-TRACE"] == "a b")
        #expect(head.headers.values("X-Trace") == ["a b", "c"])
        #expect(head.headers[.cookie] == "s=1" && head.headers.contains("cookie"))
        #expect(head.headers["If-None-Match"] == nil && !head.headers.contains(.ifNoneMatch))
        #expect(head.headers.values(.origin) == ["http://panel"])
        #expect(head.headers.count == 5)
        #expect(head.headers.map(\.name) == ["host", "X-Trace", "COOKIE", "x-trace", "Origin"])
        #expect(head.target == "/a?b=1" && head.method == "GET" && head.version == "HTTP/1.1")
        #expect(head.firstValue(.host).map(Array.init) == Array("panel".utf8))
    }

    @Test func aChangedParsedListKeepsItsOrderAndValues() throws {
        var headers = try Self.parsedHead("Host: h\r\nA: 1\r\nB: 2\r\na: 3\r\n").headers
        headers["a"] = "4"
        #expect(headers.map { "\($0.name)=\($0.value)" } == ["Host=h", "B=2", "a=4"])
        headers.add(.cacheControl, "no-store")
        #expect(headers["cache-control"] == "no-store")
    }

    @Test func theDetachedCopyOwnsJustTheHead() throws {
        let head = try Self.parsedHead("Host: h\r\nCookie: a=1\r\n")
        let detached = head.detachedHeaders
        #expect(detached == head.headers)
        #expect(detached.parsed?.bytes.startIndex == 0)
        #expect(detached.parsed?.bytes.count == head.headers.parsed?.bytes.count)
    }

    @Test func knownNamesAreFoundIgnoringCaseAndOthersAreNot() {
        #expect(KnownHeader("content-type") == .contentType)
        #expect(KnownHeader("ETAG") == .etag)
        #expect(KnownHeader("Content-Typ") == nil && KnownHeader("X-Content-Type") == nil && KnownHeader("") == nil)
        for header in KnownHeader.allCases { #expect(KnownHeader(header.name.uppercased()) == header) }
    }

    static let block = HeaderBlock([("X-Frame-Options", "DENY"), ("X-Content-Type-Options", "nosniff"),
                                    ("Referrer-Policy", "same-origin")])

    /// The block sends the bytes that setting each field would.
    @Test func aBlockSendsWhatItsFieldsWouldAndStaysReadable() {
        var byBlock = HTTPResponse.text("hi")
        byBlock.headers["X-Frame-Options"] = "SAMEORIGIN"   // replaced by the block, as a subscript would
        byBlock.headers.set(Self.block)
        byBlock.headers.set(Self.block)                     // set again: still once
        var byField = HTTPResponse.text("hi")
        byField.headers["X-Frame-Options"] = "SAMEORIGIN"
        for (name, value) in [("X-Frame-Options", "DENY"), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin")] {
            byField.headers[name] = value
        }
        let serialize = { (headers: HTTPHeaders) in
            ResponseHead.serialize(status: 200, headers: headers, length: .known(2), keepAlive: true,
                                   version: "HTTP/1.1", date: "now")
        }
        #expect(serialize(byBlock.headers) == serialize(byField.headers))
        #expect(byBlock.headers == byField.headers)
        #expect(byBlock.headers["x-frame-options"] == "DENY" && byBlock.headers.count == 4)
    }

    @Test func replacingAFieldOfABlockKeepsTheRestInPlace() {
        var headers = HTTPHeaders([("A", "1")])
        headers.set(Self.block)
        headers[.cacheControl] = "no-store"
        headers["x-content-type-options"] = "other"
        #expect(headers.map { "\($0.name)=\($0.value)" }
                == ["A=1", "X-Frame-Options=DENY", "Referrer-Policy=same-origin", "Cache-Control=no-store",
                    "x-content-type-options=other"])
        headers.remove(.xFrameOptions)
        #expect(!headers.contains("X-Frame-Options") && headers.count == 4)
    }

    @Test func fieldsTheConnectionOwnsNeverComeFromTheHandler() {
        var headers = HTTPHeaders()
        headers[.contentLength] = "999"
        headers["connection"] = "upgrade"
        headers["X-A"] = "a\r\nSet-Cookie: evil=1"
        let head = String(decoding: ResponseHead.serialize(status: 200, headers: headers, length: .known(2), keepAlive: true,
                                                          version: "HTTP/1.1", date: "now"), as: UTF8.self)
        #expect(head == "HTTP/1.1 200 OK\r\nDate: now\r\nX-A: aSet-Cookie: evil=1\r\nContent-Length: 2\r\n\r\n")
    }
}

/// The receive buffer: lent while bytes are in it, handed back when the connection goes idle.
struct ReceiveBufferTests {
    @Test func storageIsHandedBackOnlyWhenNothingIsBuffered() {
        var parser = RequestParser()
        var lent: [UInt8] = []
        lent.reserveCapacity(4096)
        #expect(parser.needsStorage)
        parser.adoptStorage(lent)
        #expect(!parser.needsStorage)
        parser.feed(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/1.1\r\n".utf8))
        guard case .head = parser.next() else { Issue.record("no head"); return }
        #expect(parser.next() == .end)
        #expect(parser.takeStorageIfEmpty() == nil)   // half of the next head is still in it
        #expect(parser.next() == .needMore)
        parser.feed(Array("Host: x\r\n\r\n".utf8))
        guard case .head(let second) = parser.next() else { Issue.record("no second head"); return }
        #expect(second.target == "/second")
        #expect(parser.next() == .end && parser.next() == .needMore)
        let back = parser.takeStorageIfEmpty()
        #expect(back != nil && back!.isEmpty && back!.capacity >= 4096)
        #expect(parser.needsStorage && parser.isIdle)
        parser.feed(Array("GET /third HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        guard case .head(let third) = parser.next() else { Issue.record("no third head"); return }
        #expect(third.target == "/third")
    }
}

/// Handlers started on the loop with `Task.immediate`: those that answer before suspending are
/// sent from the parse loop itself; pipelined requests still come back in order.
@Suite(.serialized, .awaitsTeardown) struct ImmediateHandlerTests {
    @Test func pipelinedAnswersOfSuspendingAndImmediateHandlersComeBackInOrder() async throws {
        var router = Router()
        router.get("/now/{n}") { request in .text("now \(request.pathParameters["n"]!)") }
        router.get("/later/{n}") { request in
            try await Task.sleep(for: .milliseconds(5))
            return .text("later \(request.pathParameters["n"]!)")
        }
        router.post("/ignore") { _ in .text("ignored") }   // does not read its body
        try await withServer(router, handlersOnLoops: true) { _, port in
            let client = try await RawHTTPClient.connect(port: port)
            var stream = ""
            var expected: [String] = []
            for n in 0..<12 {
                let path = n % 3 == 1 ? "/later/\(n)" : "/now/\(n)"
                stream += "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n"
                expected.append(n % 3 == 1 ? "later \(n)" : "now \(n)")
                if n == 5 {
                    stream += "POST /ignore HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
                    expected.append("ignored")
                }
            }
            try await client.send(stream)
            for text in expected {
                let response = try await client.readResponse()
                #expect(response.status == 200 && response.text == text)
            }
            try await client.send("GET /now/last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(try await client.readResponse().text == "now last")
            #expect(await client.readsEOF())
        }
    }
}
