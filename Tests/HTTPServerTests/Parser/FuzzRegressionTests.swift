import Foundation
import Testing
@testable import HTTPServer

/// Inputs that `scripts/fuzz` found breaking a parser's contract, kept so the bugs stay fixed.
/// Each parser promises the same outcome however its input is split into pieces.
@Suite struct FuzzRegressionTests {
    private static func pieces(_ bytes: [UInt8], of size: Int) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min(bytes.count, $0 + size)]) }
    }

    private static func limits(requestLine: Int = 96, headerBytes: Int = 256) -> ServerLimits {
        var limits = ServerLimits()
        limits.maxRequestLineBytes = requestLine
        limits.maxHeaderBytes = headerBytes
        limits.maxHeaderCount = 8
        limits.defaultBodyLimit = 512
        return limits
    }

    /// request-parser: a bare CR past the request-line limit was a 400 when the request came
    /// whole, a 414 when it came in pieces (the limit was checked once per feed).
    @Test func requestLineLimitDoesNotDependOnSplitting() {
        let limits = Self.limits()
        let input = Array("POST /x ".utf8) + Array(repeating: 0xFF, count: 81) + Array("HTTP\u{A0}HTTP\r0".utf8)
        let whole = parse([input], limits: limits)
        #expect(whole == [.error(414)])
        for size in [1, 7, 50] {
            #expect(parse(Self.pieces(input, of: size), limits: limits) == whole, "pieces of \(size)")
        }
    }

    /// The header-section limit, likewise: a bare LF past it is the same 431 whole or in pieces.
    @Test func headerSectionLimitDoesNotDependOnSplitting() {
        let limits = Self.limits(headerBytes: 64)
        let input = Array("GET / HTTP/1.1\r\nHost: a\r\nX-Pad: \(String(repeating: "p", count: 60))\nmore".utf8)
        let whole = parse([input], limits: limits)
        #expect(whole == [.error(431)])
        for size in [1, 3, 16] {
            #expect(parse(Self.pieces(input, of: size), limits: limits) == whole, "pieces of \(size)")
        }
    }

    /// A request line of exactly the limit is still accepted, whole or in pieces.
    @Test func requestLineAtTheLimitIsAccepted() {
        let limits = Self.limits(requestLine: 32)
        let line = "GET /" + String(repeating: "a", count: 32 - "GET / HTTP/1.1".count) + " HTTP/1.1"
        #expect(line.utf8.count == 32)
        let input = Array("\(line)\r\nHost: a\r\n\r\n".utf8)
        for size in [1, 5, input.count] {
            #expect(parse(Self.pieces(input, of: size), limits: limits) == [.request(method: "GET", target: String(line.dropFirst(4).dropLast(9)), body: "")],
                    "pieces of \(size)")
        }
        let longer = Array("GET /a\(line.dropFirst(5))\r\nHost: a\r\n\r\n".utf8)
        for size in [1, 5, longer.count] {
            #expect(parse(Self.pieces(longer, of: size), limits: limits) == [.error(414)], "pieces of \(size)")
        }
    }

    private static func multipartEvents(_ pieces: [[UInt8]]) -> [String] {
        var parser = MultipartParser(boundary: "XyZ", maxHeaderBytes: 128)
        var events: [String] = []
        for piece in pieces {
            parser.feed(piece)
            loop: while true {
                let event = parser.next()
                switch event {
                case .needMore: break loop
                case .data(let bytes): events.append("data \(String(decoding: bytes, as: UTF8.self))")
                case .error(let e): events.append("error \(e.status)"); return events
                case .end: events.append("end"); return events
                default: events.append("\(event)")
                }
            }
        }
        return events
    }

    /// multipart-form: a part with no headers (a blank line right after the delimiter line) was
    /// found by looking for CRLFCRLF from the delimiter line's CRLF; when that CRLF had already
    /// been consumed by an earlier piece, the part's data was read as its headers instead.
    @Test func headerlessPartIsRefusedHoweverSplit() {
        let body = Array("--XyZ\r\n\r\nContent-Disposition: form-data; name=\"smuggled\"\r\n\r\nvalue\r\n--XyZ--\r\n".utf8)
        let whole = Self.multipartEvents([body])
        #expect(whole == ["error 400"])
        for size in [1, 2, 7] {
            #expect(Self.multipartEvents(Self.pieces(body, of: size)) == whole, "pieces of \(size)")
        }
    }

    /// The fuzzer's own input for the bug above: it gave 400 whole and 413 in 1-byte pieces.
    @Test func fuzzedHeaderlessPartInput() {
        let body = Array("p-reamble\r\n--XyZ\r\n\r\n--XyZ\r?\nCon\0ent-Disp--XyZon:".utf8) + Array(repeating: 0xD1, count: 140)
        let whole = Self.multipartEvents([body])
        #expect(Self.multipartEvents(Self.pieces(body, of: 1)) == whole)
    }

    /// Padding after a delimiter is limited to 64 bytes whether or not the line's end arrived
    /// with it (it used to be checked only while waiting for more bytes).
    @Test func delimiterPaddingLimitDoesNotDependOnSplitting() {
        let body = Array("--XyZ\(String(repeating: " ", count: 70))\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--XyZ--".utf8)
        let whole = Self.multipartEvents([body])
        #expect(whole == ["error 400"])
        for size in [1, 16] {
            #expect(Self.multipartEvents(Self.pieces(body, of: size)) == whole, "pieces of \(size)")
        }
    }
}
