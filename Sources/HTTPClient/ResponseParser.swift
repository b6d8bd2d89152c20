import Foundation
import NetworkIO

/// A pure parser for one HTTP/1.1 response, for `HTTPClient`: feed bytes, ask whether the
/// response is complete. It does no I/O, so it can be tested byte by byte.
///
/// As strict as the server's `RequestParser` (RFC 9112), because a lenient client is the other
/// half of response splitting: lines end in CRLF only (a bare CR or LF is an error), no obsolete
/// line folding, header names are tokens and values hold no control characters (`HTTPSyntax`),
/// the body framing must be unambiguous (one Content-Length of digits, or Transfer-Encoding
/// exactly `chunked`, never both), chunk-size lines and the CRLF after each chunk are exact,
/// nothing may follow a response that nobody asked for, and every part has a limit.
///
/// Bodies: Content-Length, chunked, or read until close; none for HEAD, 1xx, 204 and 304.
/// Interim 1xx responses are skipped (a few of them).
struct ResponseParser {
    struct Limits: Sendable {
        /// The status line and header fields together (and the trailer section on its own).
        var maxHeaderBytes = 64 * 1024
        var maxHeaderCount = 100
        var maxChunkLineBytes = 1024
        var maxInterimResponses = 8
        var maxBodyBytes = 64 * 1024 * 1024
    }

    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: Data
        /// The server allows another request on this connection.
        var reusable: Bool
    }

    enum Outcome {
        case complete(Response)
        case needMore
        /// Not valid HTTP/1.1, or over a limit; the connection cannot be trusted any more.
        case malformed(reason: String)
    }

    private enum State {
        case statusLine
        case headerLines
        /// Reading the body through `bodyReader` (framing shared with the server's parser).
        case body
        case done
        case failed(String)
    }

    let limits: Limits
    private let isHeadRequest: Bool
    private var buffer: [UInt8] = []
    /// The first byte not consumed yet.
    private var start = 0
    /// Where the search for the current line's LF goes on, so no byte is looked at twice.
    private var scanned = 0
    private var state = State.statusLine
    /// Bytes of the head read so far, for `maxHeaderBytes`.
    private var sectionBytes = 0
    private var interimResponses = 0
    private var minorVersion = 1
    private var status = 0
    private var headers: [(String, String)] = []
    private var bodyReader: HTTPBodyReader?
    private var keepAlive = true
    private var body = Data()

    /// Bytes of the response received so far (0 means the server sent nothing at all).
    private(set) var receivedBytes = 0
    /// Why the response was refused, when it was well-formed but not acceptable (too large, or
    /// compressed); nil for plain malformation.
    private(set) var refusal: HTTPClientError?

    init(isHeadRequest: Bool, limits: Limits = Limits()) {
        self.isHeadRequest = isHeadRequest
        self.limits = limits
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && (start == buffer.count || start >= 64 * 1024) {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
        receivedBytes += bytes.count
    }

    /// The peer closed: completes a read-until-close body, else the response is cut short.
    mutating func finishAtEOF() -> Outcome {
        switch (state, bodyReader?.endsAtClose ?? false) {
        case (.body, true):
            state = .done
            return .complete(Response(status: status, headers: headers, body: body, reusable: false))
        case (.failed(let reason), _):
            return .malformed(reason: reason)
        default:
            return fail("the connection closed before the response was complete")
        }
    }

    mutating func parse() -> Outcome {
        while true {
            switch state {
            case .failed(let reason):
                return .malformed(reason: reason)
            case .done:
                // Bytes after the response were never asked for: do not reuse the connection.
                let reusable = keepAlive && start == buffer.count
                return .complete(Response(status: status, headers: headers, body: body, reusable: reusable))
            case .statusLine:
                guard let line = nextLine(maxLength: limits.maxHeaderBytes - sectionBytes) else { return pendingOrFailed() }
                sectionBytes += line.count + 2
                if let problem = readStatusLine(buffer[line]) { return fail(problem) }
                state = .headerLines
            case .headerLines:
                guard let line = nextLine(maxLength: limits.maxHeaderBytes - sectionBytes) else { return pendingOrFailed() }
                sectionBytes += line.count + 2
                if line.isEmpty {
                    if let problem = endOfHead() { return fail(problem) }
                    continue
                }
                guard headers.count < limits.maxHeaderCount else { return fail("too many header fields") }
                switch HTTPSyntax.fieldLine(buffer[line]) {
                case .success(let field): headers.append(field)
                case .failure(let violation): return fail(violation.rawValue)
                }
            case .body:
                guard var reader = bodyReader else { state = .done; continue }
                let step = reader.next(in: buffer, start: &start)
                bodyReader = reader
                scanned = start
                switch step {
                case .data(let range): body.append(contentsOf: buffer[range])
                case .needMore: return .needMore
                case .end: state = .done
                case .failed(let failure):
                    if case .tooLarge(let limit) = failure { refusal = .bodyTooLarge(limit: limit) }
                    return fail(Self.reason(failure))
                }
            }
        }
    }

    /// A body framing failure in the words this parser reports.
    private static func reason(_ failure: HTTPBodyReader.Failure) -> String {
        switch failure {
        case .tooLarge(let limit): "the body is larger than \(limit) bytes"
        case .lineTooLong(let limit, _): "a line is longer than \(limit) bytes"
        case .bareLF: "bare LF"
        case .bareCR: "bare CR"
        case .chunkDataNotFollowedByCRLF: "chunk data not followed by CRLF"
        case .syntax(let violation): violation.rawValue
        }
    }

    // MARK: lines

    /// The CRLF-terminated line at `start` (without its CRLF), consumed; nil when it is not all
    /// here yet, or when it breaks the rules (then `state` is `.failed`): a bare CR or LF, or
    /// more than `maxLength` bytes.
    private mutating func nextLine(maxLength budget: Int) -> Range<Int>? {
        // A section's last line may spend the budget's final bytes on its CRLF, leaving it below
        // zero: only the empty line that ends the section fits then. Without the clamp, a split
        // landing right there failed at once, while the same bytes in one piece were accepted.
        let maxLength = max(0, budget)
        let searchEnd = min(buffer.count, start + max(0, maxLength) + 2)
        guard let lf = find(ASCII.lf, in: max(scanned, start)..<searchEnd) else {
            scanned = searchEnd
            if buffer.count - start > maxLength + 1 { state = .failed("a line is longer than \(maxLength) bytes") }
            return nil
        }
        guard lf > start, buffer[lf - 1] == ASCII.cr else {
            state = .failed("bare LF")
            return nil
        }
        let line = start..<(lf - 1)
        guard find(ASCII.cr, in: line) == nil else {
            state = .failed("bare CR")
            return nil
        }
        start = lf + 1
        scanned = start
        return line
    }

    private func find(_ byte: UInt8, in range: Range<Int>) -> Int? {
        range.isEmpty ? nil : buffer[range].firstIndex(of: byte)
    }

    private mutating func pendingOrFailed() -> Outcome {
        if case .failed(let reason) = state { return .malformed(reason: reason) }
        return .needMore
    }

    private mutating func fail(_ reason: String) -> Outcome {
        state = .failed(reason)
        return .malformed(reason: reason)
    }

    // MARK: head

    /// `HTTP/1.x SP 3DIGIT [SP reason]`: version 1.0 or 1.1, a status from 100 to 599, a reason
    /// of visible text. Answers what is wrong, or nil.
    private mutating func readStatusLine(_ line: ArraySlice<UInt8>) -> String? {
        let bytes = Array(line)
        guard bytes.count >= 12, bytes.starts(with: Array("HTTP/1.".utf8)), bytes[8] == ASCII.space else {
            return "malformed status line"
        }
        switch bytes[7] {
        case UInt8(ascii: "0"): minorVersion = 0
        case UInt8(ascii: "1"): minorVersion = 1
        default: return "unsupported HTTP version"
        }
        let digits = bytes[9..<12]
        guard digits.allSatisfy({ (48...57).contains($0) }),
              let code = Int(String(decoding: digits, as: UTF8.self)), (100...599).contains(code) else {
            return "malformed status code"
        }
        if bytes.count > 12 {
            guard bytes[12] == ASCII.space, bytes[13...].allSatisfy(ASCII.isFieldValueChar) else {
                return "malformed reason phrase"
            }
        }
        status = code
        headers = []
        return nil
    }

    /// The head is complete: skips an interim response, or decides how the body is framed
    /// (RFC 9112 §6.3) and whether the connection stays open. Answers what is wrong, or nil.
    private mutating func endOfHead() -> String? {
        if (100..<200).contains(status) {
            // We never ask to switch protocols; a 101 would leave the rest unreadable as HTTP.
            guard status != 101 else { return "unexpected 101 Switching Protocols" }
            interimResponses += 1
            guard interimResponses <= limits.maxInterimResponses else { return "too many interim responses" }
            sectionBytes = 0
            state = .statusLine
            return nil
        }
        let connection = values("Connection").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        keepAlive = minorVersion == 1 ? !connection.contains("close") : connection.contains("keep-alive")

        let codings = values("Transfer-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        let lengths = values("Content-Length")
        // Only `identity` is asked for: a compressed body is refused rather than inflated.
        let contentCodings = values("Content-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty && $0 != "identity" }
        if let coding = contentCodings.first, !isHeadRequest, status != 204, status != 304 {
            refusal = .encodedBody(String(coding.prefix(40)))
            return "a \(coding)-compressed body, which was not asked for"
        }
        state = .body
        let framing: HTTPBodyReader.Framing?
        if isHeadRequest || status == 204 || status == 304 {
            framing = nil
        } else if !codings.isEmpty || !values("Transfer-Encoding").isEmpty {
            if !lengths.isEmpty { return "Content-Length with Transfer-Encoding" }
            if minorVersion == 0 { return "Transfer-Encoding in HTTP/1.0" }
            // Only `chunked` is asked for (no Accept-Encoding/TE is sent), so anything else is unreadable.
            guard codings == ["chunked"] else { return "unsupported Transfer-Encoding" }
            framing = .chunked
        } else if !lengths.isEmpty {
            guard lengths.count == 1, let text = lengths.first, (1...18).contains(text.utf8.count),
                  text.utf8.allSatisfy({ (48...57).contains($0) }), let length = Int(text) else {
                return "malformed or repeated Content-Length"
            }
            guard length <= limits.maxBodyBytes else {
                refusal = .bodyTooLarge(limit: limits.maxBodyBytes)
                return "the body is larger than \(limits.maxBodyBytes) bytes"
            }
            framing = .length(length)
        } else {
            framing = .untilClose
            keepAlive = false
        }
        bodyReader = framing.map {
            HTTPBodyReader(framing: $0, maxBodyBytes: limits.maxBodyBytes,
                           maxChunkLineBytes: limits.maxChunkLineBytes, maxTrailerBytes: limits.maxHeaderBytes)
        }
        return nil
    }

    private func values(_ name: String) -> [String] {
        headers.filter { ASCII.equalsIgnoringCase($0.0, name) }.map(\.1)
    }
}
