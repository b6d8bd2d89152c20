/// A streaming `multipart/form-data` parser (RFC 7578, RFC 2046 §5.1): feed it pieces of the
/// body in any sizes; it emits each part's headers, its data as soon as no delimiter can hide in
/// it, and the part's end. Pure (no I/O), so it is tested with 16-byte pieces.
struct MultipartParser {
    struct PartHeaders: Equatable {
        var name: String
        /// nil for a text field; "" for a file input left empty.
        var filename: String?
        var contentType: String?
    }

    enum Event: Equatable {
        case partHeaders(PartHeaders)
        case data(ArraySlice<UInt8>)
        case partEnd
        case end
        case needMore
        case error(HTTPError)
    }

    private enum State { case preamble, afterDelimiter, headers, body, done, failed(HTTPError) }

    /// "\r\n--boundary": the body is parsed as if preceded by CRLF, so the first delimiter
    /// looks like every other one.
    private let delimiter: [UInt8]
    private let maxHeaderBytes: Int
    private var buffer: [UInt8] = [ASCII.cr, ASCII.lf]
    private var start = 0
    private var state = State.preamble

    init(boundary: String, maxHeaderBytes: Int) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        self.maxHeaderBytes = maxHeaderBytes
    }

    /// A boundary as RFC 2046 allows it: 1 to 70 characters, no trailing space.
    static func isValidBoundary(_ b: String) -> Bool {
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
        return (1...70).contains(b.utf8.count) && b.utf8.allSatisfy(allowed.contains) && b.last != " "
    }

    var isFinished: Bool { if case .done = state { true } else { false } }

    mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        if start > 0 && (start == buffer.count || start >= 64 * 1024) {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    mutating func next() -> Event {
        while true {
            switch state {
            case .failed(let error):
                return .error(error)
            case .done:
                // The epilogue after the final delimiter is ignored.
                start = buffer.count
                return .end
            case .preamble:
                if let at = find(delimiter, from: start) {
                    start = at + delimiter.count
                    state = .afterDelimiter
                } else {
                    start = max(start, buffer.count - (delimiter.count - 1))
                    return .needMore
                }
            case .afterDelimiter:
                // "--" ends the message; otherwise optional padding then CRLF starts a part.
                guard buffer.count - start >= 2 else { return .needMore }
                if buffer[start] == UInt8(ascii: "-") && buffer[start + 1] == UInt8(ascii: "-") {
                    state = .done
                    continue
                }
                var i = start
                while i < buffer.count, buffer[i] == ASCII.space || buffer[i] == ASCII.tab { i += 1 }
                // Checked whether or not the line's end has arrived, so splitting cannot change the outcome.
                if i - start > 64 { return fail("Malformed multipart delimiter") }
                guard i + 1 < buffer.count else { return .needMore }
                guard buffer[i] == ASCII.cr, buffer[i + 1] == ASCII.lf else { return fail("Malformed multipart delimiter") }
                start = i + 2
                state = .headers
            case .headers:
                let headerBytes: [UInt8]
                if buffer.count - start >= 2 && buffer[start] == ASCII.cr && buffer[start + 1] == ASCII.lf {
                    // A part with no headers at all: the blank line directly follows the delimiter
                    // line. Looked at on its own, not as part of a CRLFCRLF that reaches back into
                    // the delimiter line: those bytes may already be gone when the body arrives in
                    // pieces (found by fuzzing: the part's data was then read as its headers).
                    headerBytes = []
                    start += 2
                } else {
                    guard let end = find([ASCII.cr, ASCII.lf, ASCII.cr, ASCII.lf], from: start) else {
                        if buffer.count - start > maxHeaderBytes { return fail("Part headers are too large (at most \(maxHeaderBytes) bytes)", status: 413,
                                                                         limit: .partHeaders(maxBytes: maxHeaderBytes)) }
                        return .needMore
                    }
                    if end + 4 - start > maxHeaderBytes { return fail("Part headers are too large (at most \(maxHeaderBytes) bytes)", status: 413,
                                                                         limit: .partHeaders(maxBytes: maxHeaderBytes)) }
                    headerBytes = Array(buffer[start..<end])
                    start = end + 4
                }
                guard let headers = Self.parseHeaders(headerBytes) else { return fail("Malformed part headers") }
                state = .body
                return .partHeaders(headers)
            case .body:
                if let at = find(delimiter, from: start) {
                    if at > start {
                        let piece = buffer[start..<at]
                        start = at
                        return .data(piece)
                    }
                    start = at + delimiter.count
                    state = .afterDelimiter
                    return .partEnd
                }
                // Keep back the bytes that could be the beginning of a delimiter.
                let safe = buffer.count - (delimiter.count - 1)
                guard safe > start else { return .needMore }
                let piece = buffer[start..<safe]
                start = safe
                return .data(piece)
            }
        }
    }

    private mutating func fail(_ message: String, status: Int = 400, limit: FormLimit? = nil) -> Event {
        let error = HTTPError(status: status, message: message, limit: limit)
        state = .failed(error)
        return .error(error)
    }

    private func find(_ needle: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, buffer.count - from >= needle.count else { return nil }
        var i = from
        let last = buffer.count - needle.count
        while i <= last {
            if buffer[i] == first {
                var j = 1
                while j < needle.count && buffer[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    /// Reads Content-Disposition (name, filename, filename*) and Content-Type of a part.
    static func parseHeaders(_ bytes: [UInt8]) -> PartHeaders? {
        guard bytes.allSatisfy({ $0 == ASCII.cr || $0 == ASCII.lf || ASCII.isFieldValueChar($0) }) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        var disposition: String?, contentType: String?
        for line in text.components(separatedBy: "\r\n") where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":"), ASCII.isToken(line[..<colon]) else { return nil }
            let name = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...].trimmingSpaces())
            if name == "content-disposition" { disposition = value }
            if name == "content-type" { contentType = value }
        }
        guard let disposition else { return nil }
        let parts = HeaderParameters.split(disposition)
        guard parts.first?.trimmingSpaces().lowercased() == "form-data" else { return nil }
        let parameters = HeaderParameters.parse(parts.dropFirst())
        guard let name = parameters["name"] else { return nil }
        var filename = parameters["filename"]
        if let extended = parameters["filename*"], let decoded = decodeExtendedValue(extended) {
            filename = decoded
        }
        return PartHeaders(name: name, filename: filename.map(sanitizeFilename), contentType: contentType)
    }

    /// RFC 8187 `UTF-8''%E2%82%AC%20rates.png`.
    static func decodeExtendedValue(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0].lowercased() == "utf-8" else { return nil }
        return PercentDecoding.decode(pieces[2])
    }

    /// Keeps only the last path component (browsers on Windows may send `C:\fakepath\x.png`)
    /// and drops control characters.
    static func sanitizeFilename(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        return String(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
    }
}
