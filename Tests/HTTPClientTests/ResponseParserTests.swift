import Foundation
import TestSupport
import Testing
@testable import HTTPClient

@Suite struct ResponseParserTests {
    /// Feeds `raw` in the given pieces; returns the first non-needMore outcome (or needMore).
    func parse(_ pieces: [[UInt8]], head: Bool = false, eof: Bool = false,
               limits: ResponseParser.Limits = ResponseParser.Limits()) -> ResponseParser.Outcome {
        var parser = ResponseParser(isHeadRequest: head, limits: limits)
        for piece in pieces {
            piece.withUnsafeBytes { parser.feed($0) }
            let outcome = parser.parse()
            if case .needMore = outcome { continue }
            return outcome
        }
        return eof ? parser.finishAtEOF() : .needMore
    }

    func complete(_ outcome: ResponseParser.Outcome) -> ResponseParser.Response? {
        if case .complete(let r) = outcome { return r }
        return nil
    }

    @Test func lengthChunkedAndInterimResponsesHoweverSplit() throws {
        let cases: [(String, String, Bool)] = [
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhello", "hello", true),
            ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok", "ok", true),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;x=y\r\n world\r\n0\r\nT: 1\r\n\r\n", "hello world", true),
            ("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx", "x", false),
            ("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx", "x", false),
            ("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx", "x", true),
            ("HTTP/1.1 204 No Content\r\n\r\n", "", true),
            ("HTTP/1.1 304 Not Modified\r\nContent-Length: 99\r\n\r\n", "", true),
        ]
        for (raw, body, reusable) in cases {
            for pieces in splittings(of: Array(raw.utf8)) {
                let response = try #require(complete(parse(pieces)), "\(raw)")
                #expect(String(decoding: response.body, as: UTF8.self) == body)
                #expect(response.reusable == reusable, "\(raw)")
            }
        }
    }

    @Test func headResponseHasNoBodyWhateverItsLength() throws {
        let response = try #require(complete(parse([Array("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n".utf8)], head: true)))
        #expect(response.status == 200 && response.body.isEmpty && response.reusable)
    }

    @Test func bodyUntilCloseEndsAtEOF() throws {
        let raw = Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nstreamed until close".utf8)
        #expect(complete(parse([raw])) == nil)
        let response = try #require(complete(parse([raw], eof: true)))
        #expect(String(decoding: response.body, as: UTF8.self) == "streamed until close")
        #expect(!response.reusable)
    }

    func reason(_ outcome: ResponseParser.Outcome) -> String? {
        if case .malformed(let reason) = outcome { return reason }
        return nil
    }

    /// Each broken response is refused with its reason however its bytes are split.
    @Test(arguments: [
        // status line
        ("HTTP/2 200 OK\r\n\r\n", "malformed status line"),
        ("HTTP/1.2 200 OK\r\n\r\n", "unsupported HTTP version"),
        ("HTTP/1.1 2000 OK\r\n\r\n", "malformed reason phrase"),
        ("HTTP/1.1 20x OK\r\n\r\n", "malformed status code"),
        ("HTTP/1.1 099 Low\r\n\r\n", "malformed status code"),
        ("HTTP/1.1 600 High\r\n\r\n", "malformed status code"),
        ("HTTP/1.1 200 O\u{1}K\r\n\r\n", "malformed reason phrase"),
        ("garbage\r\n\r\n", "malformed status line"),
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n", "unexpected 101 Switching Protocols"),
        // line endings
        ("HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n", "bare LF"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 0\n\r\n", "bare LF"),
        ("HTTP/1.1 200 OK\r\nX-A: b\rc\r\nContent-Length: 0\r\n\r\n", "bare CR"),
        // header fields
        ("HTTP/1.1 200 OK\r\nNoColon\r\n\r\n", "Malformed header field"),
        ("HTTP/1.1 200 OK\r\nX-A : b\r\n\r\n", "Malformed header field"),
        ("HTTP/1.1 200 OK\r\nX-A: b\r\n folded\r\n\r\n", "Obsolete line folding"),
        ("HTTP/1.1 200 OK\r\nX-A: b\u{0}c\r\n\r\n", "Invalid character in header value"),
        ("HTTP/1.1 200 OK\r\nX-A: b\u{7F}\r\n\r\n", "Invalid character in header value"),
        // framing
        ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "malformed or repeated Content-Length"),
        ("HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nhello", "malformed or repeated Content-Length"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\nhello", "malformed or repeated Content-Length"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", "malformed or repeated Content-Length"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
         "Content-Length with Transfer-Encoding"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", "unsupported Transfer-Encoding"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", "unsupported Transfer-Encoding"),
        ("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "Transfer-Encoding in HTTP/1.0"),
        // chunks
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "Malformed chunk size"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3 x\r\nabc\r\n0\r\n\r\n", "Malformed chunk extension"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000000\r\n", "Chunk size too large"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n", "chunk data not followed by CRLF"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\n0\r\n\r\n", "chunk data not followed by CRLF"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n", "bare LF"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nBad trailer\r\n\r\n", "Malformed header field"),
    ])
    func malformedResponsesAreRefused(raw: String, expected: String) {
        for pieces in splittings(of: Array(raw.utf8)) {
            #expect(reason(parse(pieces)) == expected, "\(raw.debugDescription)")
        }
    }

    @Test func limitsApplyToEveryPart() {
        var limits = ResponseParser.Limits()
        limits.maxHeaderBytes = 64
        limits.maxHeaderCount = 2
        limits.maxChunkLineBytes = 8
        limits.maxInterimResponses = 2
        limits.maxBodyBytes = 10
        let cases: [(String, String)] = [
            ("HTTP/1.1 200 OK\r\nX-Long: " + String(repeating: "a", count: 60) + "\r\n\r\n", "a line is longer than 47 bytes"),
            ("HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", "too many header fields"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n", "the body is larger than 10 bytes"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\n", "the body is larger than 10 bytes"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;abcdefgh\r\n", "a line is longer than 8 bytes"),
            ("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + String(repeating: "b", count: 11), "the body is larger than 10 bytes"),
            (String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 3), "too many interim responses"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: " + String(repeating: "t", count: 70) + "\r\n\r\n",
             "a line is longer than 64 bytes"),
        ]
        for (raw, expected) in cases {
            for pieces in splittings(of: Array(raw.utf8)) {
                #expect(reason(parse(pieces, limits: limits)) == expected, "\(raw.debugDescription)")
            }
        }
    }

    /// Found by the response-parser fuzz target: a trailer line that uses the section's last
    /// bytes, then the empty line. Accepted whole, it was refused when a piece ended right there.
    @Test func aSectionFilledToItsLimitEndsTheSameHoweverSplit() throws {
        var limits = ResponseParser.Limits()
        limits.maxHeaderBytes = 64
        let trailer = "T: " + String(repeating: "t", count: 61)   // 64 bytes: the whole budget
        let raw = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n" + trailer + "\r\n\r\n"
        for pieces in splittings(of: Array(raw.utf8)) {
            let response = try #require(complete(parse(pieces, limits: limits)), "\(pieces.map(\.count))")
            #expect(response.body == Data("x".utf8))
        }
        // One byte more than the empty line is refused, whole or split.
        for pieces in splittings(of: Array((raw.dropLast(2) + "X\r\n\r\n").utf8)) {
            #expect(reason(parse(pieces, eof: true, limits: limits)) != nil)
        }
    }

    @Test func bytesAfterTheResponseMakeTheConnectionSingleUse() throws {
        let raw = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n".utf8)
        let response = try #require(complete(parse([raw])))
        #expect(String(decoding: response.body, as: UTF8.self) == "ok" && !response.reusable)
    }

    @Test func aReasonPhraseIsOptional() throws {
        for raw in ["HTTP/1.1 204\r\n\r\n", "HTTP/1.1 204 \r\n\r\n"] {
            let response = try #require(complete(parse([Array(raw.utf8)])), "\(raw.debugDescription)")
            #expect(response.status == 204)
        }
    }

    @Test func malformedResponses() {
        let bad = [
            "HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "garbage\r\n\r\n",
            "HTTP/1.1 200 OK\r\nNoColon\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n",
        ]
        for raw in bad {
            if case .malformed = parse([Array(raw.utf8)]) {} else { Issue.record("accepted: \(raw.debugDescription)") }
        }
        // Cut short: a Content-Length body that never arrives is not a complete response.
        if case .malformed = parse([Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8)], eof: true) {} else {
            Issue.record("truncated body accepted")
        }
    }
}
