import Testing
@testable import NetworkIO

/// The body framings both parsers share: fed whole or a byte at a time, the same body and verdict.
@Suite struct HTTPBodyReaderTests {
    private struct Read: Equatable {
        var body = ""
        var verdict = "needMore"
    }

    private static func read(_ text: String, _ framing: HTTPBodyReader.Framing, pieceSize: Int = .max,
                             maxBody: Int = 1000) -> Read {
        var reader = HTTPBodyReader(framing: framing, maxBodyBytes: maxBody, maxChunkLineBytes: 16, maxTrailerBytes: 40)
        let bytes = Array(text.utf8)
        var buffer: [UInt8] = [], start = 0, body: [UInt8] = [], index = 0
        repeat {
            let end = bytes.count - index > pieceSize ? index + pieceSize : bytes.count
            buffer.append(contentsOf: bytes[index..<end])
            index = end
            reading: while true {
                switch reader.next(in: buffer, start: &start) {
                case .data(let range): body.append(contentsOf: buffer[range])
                case .needMore: break reading
                case .end: return Read(body: String(decoding: body, as: UTF8.self), verdict: "end")
                case .failed(let failure): return Read(body: String(decoding: body, as: UTF8.self), verdict: "\(failure)")
                }
            }
        } while index < bytes.count
        return Read(body: String(decoding: body, as: UTF8.self))
    }

    @Test(arguments: [1, 2, 3, 7, Int.max])
    func chunksWithExtensionsAndTrailersGiveTheSameBodyHoweverSplit(pieceSize: Int) {
        let text = "5;name=value\r\nhello\r\n1\r\n \r\n6\r\nworld!\r\n0\r\nX-Checksum: 42\r\n\r\n"
        #expect(Self.read(text, .chunked, pieceSize: pieceSize) == Read(body: "hello world!", verdict: "end"))
    }

    @Test func aFixedLengthEndsExactlyAtItsLength() {
        #expect(Self.read("abcdefghij", .length(10), pieceSize: 3) == Read(body: "abcdefghij", verdict: "end"))
        #expect(Self.read("abc", .length(10)) == Read(body: "abc"))
        #expect(Self.read("", .length(0)) == Read(body: "", verdict: "end"))
    }

    @Test func untilCloseNeverEndsByItself() {
        #expect(Self.read("all of it", .untilClose) == Read(body: "all of it"))
    }

    @Test(arguments: [
        ("3\r\nabcX\r\n", "chunkDataNotFollowedByCRLF"),
        ("3\nabc\r\n", "bareLF"),
        ("3\r\nabc\r\n0\r\nX: a\rb\r\n\r\n", "bareCR"),
        ("zz\r\n", "syntax(NetworkIO.HTTPSyntax.Violation.malformedChunkSize)"),
        ("3 x\r\nabc\r\n", "syntax(NetworkIO.HTTPSyntax.Violation.malformedChunkExtension)"),
        ("1;aaaaaaaaaaaaaaaaaaaa\r\n", "lineTooLong(limit: 16, inTrailers: false)"),
        ("0\r\nX-Long: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n", "lineTooLong(limit: 40, inTrailers: true)"),
        ("0\r\n bad: folding\r\n\r\n", "syntax(NetworkIO.HTTPSyntax.Violation.obsoleteLineFolding)"),
    ])
    func brokenChunkFramingFailsTheSameWholeOrByteByByte(text: String, verdict: String) {
        #expect(Self.read(text, .chunked).verdict == verdict)
        #expect(Self.read(text, .chunked, pieceSize: 1).verdict == verdict)
    }

    @Test func everyFramingStopsAtTheBodyLimit() {
        #expect(Self.read("abcdefghijk", .length(11), maxBody: 10).verdict == "tooLarge(limit: 10)")
        #expect(Self.read("6\r\nabcdef\r\n6\r\nghijkl\r\n0\r\n\r\n", .chunked, maxBody: 10).verdict == "tooLarge(limit: 10)")
        #expect(Self.read("abcdefghijk", .untilClose, pieceSize: 4, maxBody: 10).verdict == "tooLarge(limit: 10)")
    }

    /// The trailer section's last line may spend the budget's final bytes on its CRLF: then only the
    /// empty line fits, and the outcome must not depend on where the input was split.
    @Test(arguments: [1, 5, Int.max])
    func aTrailerThatSpendsTheWholeBudgetStillEnds(pieceSize: Int) {
        let line = "X-Fill: " + String(repeating: "f", count: 30)   // 38 bytes + CRLF = 40
        #expect(Self.read("0\r\n\(line)\r\n\r\n", .chunked, pieceSize: pieceSize).verdict == "end")
    }
}
