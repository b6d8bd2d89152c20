/// A pure HTTP/1.1 request parser: feed it bytes, ask it for the next event.
///
/// It does no I/O and keeps no clock, so it can be tested byte by byte: feeding a request
/// whole, one byte at a time or in random pieces yields the same events. It is strict on
/// purpose (RFC 9112): bare CR or LF, obsolete line folding, ambiguous body framing and bad
/// chunk framing are errors, because lenient parsers are how requests get smuggled.
public struct RequestParser: Sendable {
    public var limits: ServerLimits

    private enum State: Sendable, Equatable {
        case head
        /// Reading the body through `body`.
        case body
        case emitEnd
        case failed(ParseError)
    }

    private var buffer: [UInt8] = []
    /// Index of the first byte not yet consumed.
    private var start = 0
    private var state: State = .head

    // Progress of the head scan, so bytes are looked at once however they are split.
    private var scanIndex = 0
    private var lineStart = 0
    private var requestLineEnd: Int?
    private var methodEnded = false
    private var headerLines = 0

    private var bodyLimit: Int
    /// The current request's body framing (chunks, trailers, limits): shared with the client.
    private var body: HTTPBodyReader?

    public init(limits: ServerLimits = ServerLimits()) {
        self.limits = limits
        self.bodyLimit = limits.defaultBodyLimit
    }

    /// Bytes received and not yet consumed by an event.
    public var bufferedByteCount: Int { buffer.count - start }

    /// True between requests with nothing buffered: the connection is idle.
    public var isIdle: Bool { state == .head && buffer.count == start }

    /// True while a request head is partly received.
    public var isReceivingHead: Bool { state == .head && buffer.count > start }

    /// True once an error was returned; the connection must close.
    public var hasFailed: Bool { if case .failed = state { true } else { false } }

    /// True once the peer ended its side of the stream: nothing will follow what is buffered.
    public private(set) var inputEnded = false

    /// Records the end of the input (the peer half-closed or left). Events for what is already
    /// buffered still come; `.needMore` afterwards means the message was cut short.
    public mutating func endInput() { inputEnded = true }

    /// Sets the body limit of the request whose head was just returned (routes differ).
    public mutating func setBodyLimit(_ limit: Int) {
        bodyLimit = limit
        body?.maxBodyBytes = limit
    }

    /// The loop's receive buffer, appended with one copy: the generic `feed` below is not
    /// specialised across modules and would append byte by byte.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    public mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Drops the receive buffer's storage when it is empty, so idle connections stay small.
    public mutating func releaseMemoryIfEmpty() {
        _ = takeStorageIfEmpty()
    }

    /// Hands the receive buffer's storage over (emptied, capacity kept) when nothing is buffered,
    /// so an idle connection holds none and its loop can lend it to the next one that reads.
    public mutating func takeStorageIfEmpty() -> [UInt8]? {
        guard start == buffer.count, buffer.capacity > 0 else { return nil }
        var storage: [UInt8] = []
        swap(&storage, &buffer)
        rebase(by: start)
        storage.removeAll(keepingCapacity: true)
        return storage
    }

    /// True while the parser holds no storage (it was given back, or never had any).
    public var needsStorage: Bool { buffer.capacity == 0 }

    /// Takes an empty buffer's storage to receive into, if the parser has none.
    public mutating func adoptStorage(_ storage: [UInt8]) {
        guard buffer.capacity == 0, storage.isEmpty else { return }
        rebase(by: start)
        buffer = storage
    }

    private mutating func compact() {
        guard start > 0, start == buffer.count || start >= 16 * 1024 else { return }
        let shift = start
        buffer.removeFirst(shift)
        rebase(by: shift)
    }

    private mutating func rebase(by shift: Int) {
        start -= shift
        scanIndex -= shift
        lineStart -= shift
        if let end = requestLineEnd { requestLineEnd = end - shift }
    }

    public mutating func next() -> ParserEvent {
        while true {
            switch state {
            case .failed(let error):
                return .error(error)
            case .head:
                return parseHead()
            case .emitEnd:
                state = .head
                resetHeadScan()
                return .end
            case .body:
                switch body!.next(in: buffer, start: &start) {
                case .data(let range):
                    return .body(buffer[range])
                case .needMore:
                    return .needMore
                case .end:
                    body = nil
                    state = .emitEnd
                case .failed(let failure):
                    let error = Self.parseError(failure)
                    state = .failed(error)
                    return .error(error)
                }
            }
        }
    }

    /// A body framing failure as the status the client gets.
    private static func parseError(_ failure: HTTPBodyReader.Failure) -> ParseError {
        switch failure {
        case .tooLarge: ParseError(status: 413, reason: "Body exceeds the limit")
        case .lineTooLong(_, let inTrailers): ParseError(status: inTrailers ? 431 : 400, reason: "Line too long")
        case .bareLF: ParseError(status: 400, reason: "Bare LF")
        case .bareCR: ParseError(status: 400, reason: "Bare CR")
        case .chunkDataNotFollowedByCRLF: ParseError(status: 400, reason: "Chunk data not followed by CRLF")
        case .syntax(let violation): ParseError(status: 400, reason: violation.rawValue)
        }
    }

    private mutating func fail(_ status: Int, _ reason: String) -> ParserEvent {
        let error = ParseError(status: status, reason: reason)
        state = .failed(error)
        return .error(error)
    }

    private mutating func resetHeadScan() {
        scanIndex = start
        lineStart = start
        requestLineEnd = nil
        methodEnded = false
        headerLines = 0
        bodyLimit = limits.defaultBodyLimit
    }

    // MARK: head

    private mutating func parseHead() -> ParserEvent {
        var i = scanIndex
        let count = buffer.count
        while i < count {
            let b = buffer[i]
            // Limits are checked at each byte, not once per feed, so the outcome does not
            // depend on how the bytes were split (found by fuzzing: a bare CR past the limit
            // was a 400 when the request came whole but a 414 when it came in pieces).
            if let requestLineEnd, i + 1 - requestLineEnd > limits.maxHeaderBytes {
                return fail(431, "Header section too large")
            }
            if b == ASCII.lf {
                guard i > lineStart, buffer[i - 1] == ASCII.cr else { return fail(400, "Bare LF") }
                let contentEnd = i - 1
                if requestLineEnd == nil {
                    if contentEnd == lineStart {
                        // An empty line before a request is tolerated (RFC 9112 §2.2).
                        start = i + 1
                        lineStart = i + 1
                    } else {
                        if contentEnd - lineStart > limits.maxRequestLineBytes { return fail(414, "Request line too long") }
                        requestLineEnd = i + 1
                        lineStart = i + 1
                    }
                } else if contentEnd == lineStart {
                    return completeHead(headEnd: i + 1)
                } else {
                    headerLines += 1
                    if headerLines > limits.maxHeaderCount { return fail(431, "Too many header fields") }
                    lineStart = i + 1
                }
            } else {
                if requestLineEnd == nil && i - lineStart > limits.maxRequestLineBytes {
                    return fail(414, "Request line too long")
                }
                if i > start && buffer[i - 1] == ASCII.cr { return fail(400, "Bare CR") }
                if requestLineEnd == nil && !methodEnded && b != ASCII.cr {
                    if b == ASCII.space { methodEnded = true }
                    else if !ASCII.isTokenChar(b) { return fail(400, "Invalid method") }
                }
            }
            i += 1
        }
        scanIndex = i
        return .needMore
    }

    private mutating func completeHead(headEnd: Int) -> ParserEvent {
        guard let requestLineEnd else { return fail(400, "Missing request line") }
        if headEnd - requestLineEnd > limits.maxHeaderBytes { return fail(431, "Header section too large") }

        // Request line: method SP request-target SP HTTP-version
        let line = start..<(requestLineEnd - 2)
        guard let sp1 = buffer[line].firstIndex(of: ASCII.space),
              let sp2 = buffer[(sp1 + 1)..<line.upperBound].firstIndex(of: ASCII.space) else {
            return fail(400, "Malformed request line")
        }
        let methodBytes = buffer[line.lowerBound..<sp1]
        let targetBytes = buffer[(sp1 + 1)..<sp2]
        let versionBytes = buffer[(sp2 + 1)..<line.upperBound]
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(ASCII.isTokenChar) else { return fail(400, "Invalid method") }
        guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return fail(400, "Invalid request target")
        }
        let minor: Int
        switch Self.parseVersion(versionBytes) {
        case .some((1, let m)) where m <= 1: minor = m
        case .some: return fail(505, "HTTP version not supported")
        case .none: return fail(400, "Malformed HTTP version")
        }
        let method = RequestHead.method(methodBytes)
        let validForm = targetBytes.first == UInt8(ascii: "/")
            || (targetBytes.elementsEqual("*".utf8) && method == "OPTIONS")
            || Self.startsIgnoringCase(targetBytes, "http://") || Self.startsIgnoringCase(targetBytes, "https://")
        guard validForm else { return fail(400, "Invalid request target") }

        // Header fields: offsets into the head, the ones the server reads indexed as they pass.
        let headBytes = buffer[requestLineEnd..<(headEnd - 2)]
        let base = requestLineEnd
        var spans: [ParsedFields.Span] = []
        spans.reserveCapacity(headerLines)
        var index = RequestFieldIndex()
        var lineBegin = requestLineEnd
        while lineBegin < headEnd - 2 {
            var lineEnd = lineBegin
            while buffer[lineEnd] != ASCII.cr { lineEnd += 1 }
            switch HTTPSyntax.fieldLineRanges(buffer[lineBegin..<lineEnd]) {
            case .failure(let violation):
                return fail(400, violation.rawValue)
            case .success(let (name, value)):
                let known = KnownHeader.find(buffer[name])
                if let known { index.record(known, at: spans.count) }
                spans.append(ParsedFields.Span(nameStart: Int32(name.lowerBound - base), nameEnd: Int32(name.upperBound - base),
                                               valueStart: Int32(value.lowerBound - base), valueEnd: Int32(value.upperBound - base),
                                               known: known))
            }
            lineBegin = lineEnd + 2
        }
        let fields = ParsedFields(bytes: headBytes, spans: spans, index: index)

        switch Self.semantics(fields, minor: minor) {
        case .failure(let error):
            state = .failed(error)
            return .error(error)
        case .success(let (framing, keepAlive, expectsContinue)):
            let head = RequestHead(method: method, targetBytes: targetBytes, minorVersion: minor,
                                   headers: HTTPHeaders(parsed: fields), framing: framing, keepAlive: keepAlive,
                                   expectsContinue: expectsContinue)
            start = headEnd
            resetHeadScan()
            switch framing {
            case .none, .length(0):
                state = .emitEnd
            case .length(let n):
                body = HTTPBodyReader(framing: .length(n), maxBodyBytes: bodyLimit,
                                      maxChunkLineBytes: limits.maxChunkLineBytes, maxTrailerBytes: limits.maxHeaderBytes)
                state = .body
            case .chunked:
                body = HTTPBodyReader(framing: .chunked, maxBodyBytes: bodyLimit,
                                      maxChunkLineBytes: limits.maxChunkLineBytes, maxTrailerBytes: limits.maxHeaderBytes)
                state = .body
            }
            return .head(head)
        }
    }

    private static func startsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ prefix: String) -> Bool {
        bytes.count >= prefix.utf8.count && zip(bytes, prefix.utf8).allSatisfy { ASCII.lowercased($0) == $1 }
    }

    private static func parseVersion(_ bytes: ArraySlice<UInt8>) -> (Int, Int)? {
        guard bytes.count == 8, bytes.starts(with: "HTTP/".utf8) else { return nil }
        let b = bytes.startIndex
        guard bytes[b + 6] == UInt8(ascii: "."), (48...57).contains(bytes[b + 5]), (48...57).contains(bytes[b + 7]) else { return nil }
        return (Int(bytes[b + 5] - 48), Int(bytes[b + 7] - 48))
    }

    /// Host, body framing, persistence and expectations (RFC 9112 §3.2, §6, §9.3; RFC 9110 §10.1.1),
    /// read from the bytes through the field index: no String is made for a valid request.
    private static func semantics(_ fields: ParsedFields, minor: Int)
        -> Result<(BodyFraming, Bool, Bool), ParseError> {
        func bad(_ reason: String, status: Int = 400) -> Result<(BodyFraming, Bool, Bool), ParseError> {
            .failure(ParseError(status: status, reason: reason))
        }
        let index = fields.index
        let hosts = index.count(.host)
        if minor == 1 && hosts != 1 { return bad("Missing or repeated Host") }
        if hosts > 1 { return bad("Repeated Host") }

        var framing = BodyFraming.none
        if index.count(.transferEncoding) > 0 {
            if index.count(.contentLength) > 0 { return bad("Content-Length with Transfer-Encoding") }
            if minor == 0 { return bad("Transfer-Encoding in HTTP/1.0") }
            var codings = 0, onlyChunked = true
            forEachListItem(of: .transferEncoding, in: fields) { item in
                codings += 1
                if !equalsIgnoringCase(item, "chunked") { onlyChunked = false }
            }
            if !onlyChunked { return bad("Unsupported transfer coding", status: 501) }
            guard codings == 1 else { return bad("Malformed Transfer-Encoding") }
            framing = .chunked
        } else if index.count(.contentLength) > 0 {
            guard index.count(.contentLength) == 1, let value = fields.firstValue(.contentLength),
                  (1...18).contains(value.count), value.allSatisfy({ (48...57).contains($0) }) else {
                return bad("Malformed or repeated Content-Length")
            }
            framing = .length(value.reduce(0) { $0 * 10 + Int($1 - 48) })
        }

        var close = false, keepAliveToken = false
        if index.count(.connection) > 0 {
            forEachListItem(of: .connection, in: fields) { item in
                if equalsIgnoringCase(item, "close") { close = true }
                if equalsIgnoringCase(item, "keep-alive") { keepAliveToken = true }
            }
        }
        let keepAlive = minor == 1 ? !close : keepAliveToken

        var expectsContinue = false
        if let expect = fields.firstValue(.expect), minor == 1 {
            guard equalsIgnoringCase(expect, "100-continue") else { return bad("Unsupported expectation", status: 417) }
            expectsContinue = true
        }
        return .success((framing, keepAlive, expectsContinue))
    }

    /// Each non-empty item of a comma-separated header, over all its fields, without the spaces
    /// and tabs around it.
    private static func forEachListItem(of header: KnownHeader, in fields: ParsedFields,
                                        _ body: (ArraySlice<UInt8>) -> Void) {
        for span in fields.spans where span.known == header {
            for item in fields.value(span).split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                var item = item[...]
                while let f = item.first, f == ASCII.space || f == ASCII.tab { item = item.dropFirst() }
                while let l = item.last, l == ASCII.space || l == ASCII.tab { item = item.dropLast() }
                if !item.isEmpty { body(item) }
            }
        }
    }

    /// `bytes` spell `lower` (lowercase ASCII) in any case.
    private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lower: String) -> Bool {
        bytes.count == lower.utf8.count && zip(bytes, lower.utf8).allSatisfy { ASCII.lowercased($0) == $1 }
    }
}
