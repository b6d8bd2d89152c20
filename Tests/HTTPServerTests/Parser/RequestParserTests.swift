import Foundation
import TestSupport
import Testing
@testable import HTTPServer

/// What a request stream parses to, with body pieces joined, so different splittings compare equal.
enum Outcome: Equatable, CustomStringConvertible {
    case request(method: String, target: String, body: String)
    case error(Int)

    var description: String {
        switch self {
        case .request(let m, let t, let b): "\(m) \(t) [\(b)]"
        case .error(let s): "error \(s)"
        }
    }
}

func parse(_ pieces: [[UInt8]], limits: ServerLimits = ServerLimits()) -> [Outcome] {
    var parser = RequestParser(limits: limits)
    var outcomes: [Outcome] = []
    var head: RequestHead?
    var body: [UInt8] = []
    for piece in pieces {
        parser.feed(piece)
        loop: while true {
            switch parser.next() {
            case .needMore: break loop
            case .head(let h): head = h; body = []
            case .body(let b): body += b
            case .end:
                outcomes.append(.request(method: head!.method, target: head!.target,
                                         body: String(decoding: body, as: UTF8.self)))
            case .error(let e):
                outcomes.append(.error(e.status))
                return outcomes
            }
        }
    }
    return outcomes
}

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

struct HostileCase: CustomTestStringConvertible, Sendable {
    let name: String
    let raw: [UInt8]
    let status: Int
    var testDescription: String { name }
    init(_ name: String, _ raw: String, _ status: Int) { self.init(name, bytes(raw), status) }
    init(_ name: String, _ raw: [UInt8], _ status: Int) { self.name = name; self.raw = raw; self.status = status }
}

let h = "Host: x\r\n"
let hostileCorpus: [HostileCase] = [
    HostileCase("bare LF ends request line", "GET / HTTP/1.1\n\(h)\r\n", 400),
    HostileCase("bare LF ends header", "GET / HTTP/1.1\r\nHost: x\n\r\n", 400),
    HostileCase("bare LF blank line", "GET / HTTP/1.1\r\n\(h)\n", 400),
    HostileCase("bare CR in header", "GET / HTTP/1.1\r\nA: b\rc\r\n\(h)\r\n", 400),
    HostileCase("obsolete line folding", "GET / HTTP/1.1\r\n\(h)X: a\r\n b\r\n\r\n", 400),
    HostileCase("space before colon", "GET / HTTP/1.1\r\n\(h)X : a\r\n\r\n", 400),
    HostileCase("Content-Length with space before colon",
                "POST / HTTP/1.1\r\n\(h)Content-Length : 3\r\n\r\nabc", 400),
    HostileCase("empty header name", "GET / HTTP/1.1\r\n\(h): x\r\n\r\n", 400),
    HostileCase("header name with parenthesis", "GET / HTTP/1.1\r\n\(h)X(a): b\r\n\r\n", 400),
    HostileCase("header line without colon", "GET / HTTP/1.1\r\n\(h)Nonsense\r\n\r\n", 400),
    HostileCase("NUL in header value", bytes("GET / HTTP/1.1\r\n\(h)X: a") + [0] + bytes("b\r\n\r\n"), 400),
    HostileCase("control character in value", bytes("GET / HTTP/1.1\r\n\(h)X: a") + [1] + bytes("\r\n\r\n"), 400),
    HostileCase("DEL in value", bytes("GET / HTTP/1.1\r\n\(h)X: a") + [0x7F] + bytes("\r\n\r\n"), 400),
    HostileCase("missing Host in 1.1", "GET / HTTP/1.1\r\n\r\n", 400),
    HostileCase("repeated Host", "GET / HTTP/1.1\r\n\(h)\(h)\r\n", 400),
    HostileCase("repeated Host in 1.0", "GET / HTTP/1.0\r\n\(h)\(h)\r\n", 400),
    HostileCase("CL.TE smuggling", "POST / HTTP/1.1\r\n\(h)Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    HostileCase("TE.CL smuggling", "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n", 400),
    HostileCase("two equal Content-Length", "POST / HTTP/1.1\r\n\(h)Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc", 400),
    HostileCase("two different Content-Length", "POST / HTTP/1.1\r\n\(h)Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400),
    HostileCase("Content-Length list", "POST / HTTP/1.1\r\n\(h)Content-Length: 3, 3\r\n\r\nabc", 400),
    HostileCase("negative Content-Length", "POST / HTTP/1.1\r\n\(h)Content-Length: -1\r\n\r\n", 400),
    HostileCase("signed Content-Length", "POST / HTTP/1.1\r\n\(h)Content-Length: +3\r\n\r\nabc", 400),
    HostileCase("hex Content-Length", "POST / HTTP/1.1\r\n\(h)Content-Length: 0x3\r\n\r\nabc", 400),
    HostileCase("huge Content-Length", "POST / HTTP/1.1\r\n\(h)Content-Length: 99999999999999999999999\r\n\r\n", 400),
    HostileCase("Content-Length with inner space", "POST / HTTP/1.1\r\n\(h)Content-Length: 1 2\r\n\r\n", 400),
    HostileCase("empty Content-Length", "POST / HTTP/1.1\r\n\(h)Content-Length:\r\n\r\n", 400),
    HostileCase("unknown transfer coding", "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: gzip\r\n\r\n", 501),
    HostileCase("gzip then chunked", "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: gzip, chunked\r\n\r\n", 501),
    HostileCase("chunked twice", "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", 400),
    HostileCase("chunked split over two fields",
                "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
    HostileCase("lookalike coding", "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: xchunked\r\n\r\n", 501),
    HostileCase("empty Transfer-Encoding", "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: \r\n\r\n", 400),
    HostileCase("Transfer-Encoding in 1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    HostileCase("chunk size not hex", "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n", 400),
    HostileCase("negative chunk size", "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n-1\r\n\r\n", 400),
    HostileCase("chunk size overflow", "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n", 400),
    HostileCase("chunk data longer than size", "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n", 400),
    HostileCase("chunk data then bare LF", "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n3\r\nabc\n0\r\n\r\n", 400),
    HostileCase("chunk size with bare LF", "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n", 400),
    HostileCase("chunk extension with control",
                bytes("POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n3;a=") + [1] + bytes("\r\nabc\r\n0\r\n\r\n"), 400),
    HostileCase("chunk size followed by junk", "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n3 x\r\nabc\r\n0\r\n\r\n", 400),
    HostileCase("chunked body over the limit",
                "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n400\r\n", 413),
    HostileCase("folded trailer", "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n0\r\nA: b\r\n c\r\n\r\n", 400),
    HostileCase("Content-Length over the limit", "POST / HTTP/1.1\r\n\(h)Content-Length: 2000\r\n\r\n", 413),
    HostileCase("invalid method token", "GE(T / HTTP/1.1\r\n\(h)\r\n", 400),
    HostileCase("NUL in method", bytes("GE") + [0] + bytes("T / HTTP/1.1\r\n\(h)\r\n"), 400),
    HostileCase("TLS ClientHello", [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03] + [UInt8](repeating: 0x41, count: 32), 400),
    HostileCase("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
    HostileCase("HTTP/3.0", "GET / HTTP/3.0\r\n\(h)\r\n", 505),
    HostileCase("HTTP/1.2", "GET / HTTP/1.2\r\n\(h)\r\n", 505),
    HostileCase("lowercase version", "GET / http/1.1\r\n\(h)\r\n", 400),
    HostileCase("version with suffix", "GET / HTTP/1.1x\r\n\(h)\r\n", 400),
    HostileCase("HTTP/0.9 request", "GET /\r\n\r\n", 400),
    HostileCase("double space in request line", "GET  / HTTP/1.1\r\n\(h)\r\n", 400),
    HostileCase("tab in request line", "GET\t/ HTTP/1.1\r\n\(h)\r\n", 400),
    HostileCase("relative target", "GET index.html HTTP/1.1\r\n\(h)\r\n", 400),
    HostileCase("non-ASCII target", bytes("GET /caf") + [0xC3, 0xA9] + bytes(" HTTP/1.1\r\n\(h)\r\n"), 400),
    HostileCase("asterisk target on GET", "GET * HTTP/1.1\r\n\(h)\r\n", 400),
    HostileCase("request line too long", "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n\(h)\r\n", 414),
    HostileCase("endless request line", "GET /" + String(repeating: "a", count: 9000), 414),
    HostileCase("header section too large",
                "GET / HTTP/1.1\r\n\(h)" + String(repeating: "X-Pad: \(String(repeating: "p", count: 1000))\r\n", count: 40) + "\r\n", 431),
    HostileCase("too many header fields", "GET / HTTP/1.1\r\n\(h)" + String(repeating: "X: y\r\n", count: 101) + "\r\n", 431),
    HostileCase("unsupported expectation", "POST / HTTP/1.1\r\n\(h)Expect: 200-ok\r\nContent-Length: 1\r\n\r\na", 417),
    HostileCase("binary garbage", [0, 1, 2, 3, 255, 254, 13, 10, 13, 10], 400),
]

@Suite struct RequestParserTests {
    static let smallLimits = { var l = ServerLimits(); l.defaultBodyLimit = 1000; return l }()

    @Test(arguments: hostileCorpus)
    func hostileRequestGetsItsStatusHoweverSplit(_ c: HostileCase) {
        for pieces in splittings(of: c.raw) {
            let outcomes = parse(pieces, limits: Self.smallLimits)
            #expect(outcomes.last == .error(c.status), "\(c.name): \(outcomes)")
        }
    }

    @Test func corpusIsLargeEnough() {
        #expect(hostileCorpus.count >= 40)
    }

    @Test func validRequestsParseIdenticallyHoweverSplit() {
        let stream = "\r\nGET /a?x=1 HTTP/1.1\r\nHost: x\r\n\r\n"
            + "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
            + "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\tChunked \r\n\r\n"
            + "5;name=\"v\"\r\nhello\r\n1\r\n \r\n6\r\nworld!\r\n0\r\nTrailer: yes\r\n\r\n"
            + "GET http://example.com/abs HTTP/1.1\r\nHost: example.com\r\n\r\n"
            + "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /old HTTP/1.0\r\n\r\n"
        let expected: [Outcome] = [
            .request(method: "GET", target: "/a?x=1", body: ""),
            .request(method: "POST", target: "/b", body: "hello"),
            .request(method: "POST", target: "/c", body: "hello world!"),
            .request(method: "GET", target: "http://example.com/abs", body: ""),
            .request(method: "OPTIONS", target: "*", body: ""),
            .request(method: "GET", target: "/old", body: ""),
        ]
        for pieces in splittings(of: bytes(stream)) {
            #expect(parse(pieces) == expected)
        }
    }

    @Test func headCarriesFramingKeepAliveAndExpectations() {
        var parser = RequestParser()
        parser.feed(bytes("PUT /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Length: 2\r\nX-A: 1\r\nx-a: 2\r\n\r\n"))
        guard case .head(let head) = parser.next() else { Issue.record("no head"); return }
        #expect(head.framing == .length(2))
        #expect(!head.keepAlive && head.expectsContinue)
        #expect(head.headers.values("X-A") == ["1", "2"])
        #expect(parser.next() == .needMore)
        parser.feed(bytes("ok"))
        #expect(parser.next() == .body(ArraySlice(bytes("ok"))))
        #expect(parser.next() == .end)

        var old = RequestParser()
        old.feed(bytes("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n"))
        guard case .head(let oldHead) = old.next() else { Issue.record("no head"); return }
        #expect(oldHead.keepAlive && oldHead.version == "HTTP/1.0")
    }

    @Test func routeLimitAppliesToChunkedBodies() {
        var parser = RequestParser()
        parser.feed(bytes("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n4\r\nefgh\r\n"))
        guard case .head = parser.next() else { Issue.record("no head"); return }
        parser.setBodyLimit(6)
        #expect(parser.next() == .body(ArraySlice(bytes("abcd"))))
        #expect(parser.next() == .error(ParseError(status: 413, reason: "Body exceeds the limit")))
    }

    /// Random corruptions of valid requests: the parser must never trap, and the outcome must not
    /// depend on how the bytes were split.
    @Test func mutatedRequestsNeverCrashAndDoNotDependOnSplitting() {
        let seedRequest = bytes("POST /p?q=1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nX: y\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
            + "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi")
        var rng = SeededRandom(seed: 42)
        let interesting: [UInt8] = [0, 9, 10, 13, 32, 58, 59, 0x30, 0x41, 0x7F, 0xFF]
        for _ in 0..<400 {
            var mutated = seedRequest
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let i = Int.random(in: 0..<mutated.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: mutated[i] = interesting.randomElement(using: &rng)!
                case 1: mutated.remove(at: i)
                default: mutated.insert(interesting.randomElement(using: &rng)!, at: i)
                }
            }
            let results = splittings(of: mutated, seeds: 1...2).map { parse($0).description }
            #expect(Set(results).count == 1, "\(String(decoding: mutated, as: UTF8.self).debugDescription)")
        }
    }
}
