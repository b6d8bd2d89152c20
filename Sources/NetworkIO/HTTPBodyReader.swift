/// The body framings of HTTP/1.1 (RFC 9112 §6–7): a fixed length, chunked with trailers, or
/// until the connection closes. The server's request parser and the client's response parser
/// both read bodies through it, so each chunk and trailer rule is written, tested and fuzzed once
/// (when each parser had its own copy, a trailer-budget bug lived in the client's alone).
///
/// It reads from the caller's buffer and moves the caller's `start` past what it consumed, so it
/// copies nothing: a body arrives as ranges of that buffer. It keeps no index into the buffer
/// across calls, only counts, so the caller may compact its buffer between calls.
public struct HTTPBodyReader: Sendable {
    public enum Framing: Sendable, Equatable {
        case length(Int)
        case chunked
        /// Responses only: the body ends when the peer closes.
        case untilClose
    }

    public enum Failure: Sendable, Equatable, Error {
        /// More body than `maxBodyBytes`.
        case tooLarge(limit: Int)
        /// A chunk-size line (or, `inTrailers`, a trailer line) longer than its budget.
        case lineTooLong(limit: Int, inTrailers: Bool)
        case bareLF
        case bareCR
        case chunkDataNotFollowedByCRLF
        case syntax(HTTPSyntax.Violation)
    }

    public enum Step: Sendable, Equatable {
        /// Body bytes: this range of the buffer (already consumed).
        case data(Range<Int>)
        case needMore
        /// The body (and its trailer section) is complete.
        case end
        case failed(Failure)
    }

    private enum State: Sendable, Equatable {
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        /// `bytes`: the trailer section so far, CRLFs included.
        case trailers(bytes: Int)
        case untilClose
        case done
        case failed(Failure)
    }

    /// The body may not grow past this; the server sets a route's own limit once it knows the route.
    public var maxBodyBytes: Int
    public let maxChunkLineBytes: Int
    /// The trailer section's budget, as for a head.
    public let maxTrailerBytes: Int
    /// Body bytes delivered so far.
    public private(set) var received = 0

    private var state: State
    /// Bytes after `start` already searched for the end of the current line, so however the
    /// input is split no byte is searched twice (relative to `start`: compaction cannot shift it).
    private var scanned = 0

    public init(framing: Framing, maxBodyBytes: Int, maxChunkLineBytes: Int, maxTrailerBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
        self.maxChunkLineBytes = maxChunkLineBytes
        self.maxTrailerBytes = maxTrailerBytes
        switch framing {
        case .length(let length): state = length == 0 ? .done : .fixed(remaining: length)
        case .chunked: state = .chunkSize
        case .untilClose: state = .untilClose
        }
    }

    /// Whether the body ends only when the peer closes.
    public var endsAtClose: Bool { state == .untilClose }

    /// The next step, reading `buffer` from `start`.
    public mutating func next(in buffer: [UInt8], start: inout Int) -> Step {
        while true {
            switch state {
            case .done:
                return .end
            case .failed(let failure):
                return .failed(failure)
            case .fixed(let remaining):
                if received + remaining > maxBodyBytes { return fail(.tooLarge(limit: maxBodyBytes)) }
                guard let piece = take(upTo: remaining, from: buffer, start: &start) else { return .needMore }
                state = piece.count == remaining ? .done : .fixed(remaining: remaining - piece.count)
                return .data(piece)
            case .untilClose:
                guard let piece = take(upTo: buffer.count - start, from: buffer, start: &start) else { return .needMore }
                if received > maxBodyBytes { return fail(.tooLarge(limit: maxBodyBytes)) }
                return .data(piece)
            case .chunkSize:
                let line: Range<Int>
                switch nextLine(in: buffer, start: &start, budget: maxChunkLineBytes, inTrailers: false) {
                case .pending: return .needMore
                case .failed(let failure): return fail(failure)
                case .line(let found): line = found
                }
                switch HTTPSyntax.chunkSize(buffer[line]) {
                case .failure(let violation):
                    return fail(.syntax(violation))
                case .success(0):
                    state = .trailers(bytes: 0)
                case .success(let size):
                    if received + size > maxBodyBytes { return fail(.tooLarge(limit: maxBodyBytes)) }
                    state = .chunkData(remaining: size)
                }
            case .chunkData(let remaining):
                guard let piece = take(upTo: remaining, from: buffer, start: &start) else { return .needMore }
                state = piece.count == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - piece.count)
                return .data(piece)
            case .chunkDataEnd:
                let available = buffer.count - start
                if available >= 1 && buffer[start] != ASCII.cr { return fail(.chunkDataNotFollowedByCRLF) }
                guard available >= 2 else { return .needMore }
                guard buffer[start + 1] == ASCII.lf else { return fail(.chunkDataNotFollowedByCRLF) }
                start += 2
                state = .chunkSize
            case .trailers(let bytes):
                let line: Range<Int>
                switch nextLine(in: buffer, start: &start, budget: maxTrailerBytes - bytes, inTrailers: true) {
                case .pending: return .needMore
                case .failed(let failure): return fail(failure)
                case .line(let found): line = found
                }
                if line.isEmpty {
                    state = .done
                } else if case .failure(let violation) = HTTPSyntax.fieldLine(buffer[line]) {
                    return fail(.syntax(violation))
                } else {
                    state = .trailers(bytes: bytes + line.count + 2)
                }
            }
        }
    }

    private mutating func fail(_ failure: Failure) -> Step {
        state = .failed(failure)
        return .failed(failure)
    }

    /// Up to `count` buffered bytes, consumed; nil when none are buffered.
    private mutating func take(upTo count: Int, from buffer: [UInt8], start: inout Int) -> Range<Int>? {
        let n = min(count, buffer.count - start)
        guard n > 0 else { return nil }
        defer { start += n; received += n }
        return start..<(start + n)
    }

    private enum LineResult { case line(Range<Int>), pending, failed(Failure) }

    /// The CRLF-terminated line at `start` (without its CRLF), consumed. A bare CR or LF, or more
    /// than `budget` bytes, fails.
    private mutating func nextLine(in buffer: [UInt8], start: inout Int, budget: Int, inTrailers: Bool) -> LineResult {
        // A trailer section's last line may spend the budget's final bytes on its CRLF, leaving it
        // below zero: only the empty line that ends the section fits then.
        let maxLength = max(0, budget)
        let searchEnd = min(buffer.count, start + maxLength + 2)
        var index = start + scanned
        while index < searchEnd, buffer[index] != ASCII.lf { index += 1 }
        guard index < searchEnd else {
            scanned = max(0, searchEnd - start)
            if buffer.count - start > maxLength + 1 { return .failed(.lineTooLong(limit: maxLength, inTrailers: inTrailers)) }
            return .pending
        }
        guard index > start, buffer[index - 1] == ASCII.cr else { return .failed(.bareLF) }
        let line = start..<(index - 1)
        if buffer[line].contains(ASCII.cr) { return .failed(.bareCR) }
        start = index + 1
        scanned = 0
        return .line(line)
    }
}
