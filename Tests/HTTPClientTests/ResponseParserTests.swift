import Foundation
import TestSupport
import Testing
@testable import HTTPClient

@Suite struct ResponseParserTests {
    /// Feeds `raw` in the given pieces; returns the first non-needMore outcome (or needMore).
    func parse(_ pieces: [[UInt8]], head: Bool = false, eof: Bool = false) -> ResponseParser.Outcome {
        var parser = ResponseParser(isHeadRequest: head)
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
