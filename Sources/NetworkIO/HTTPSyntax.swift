/// The line-level rules of HTTP/1.1 messages (RFC 9112) that requests and responses share, so the
/// server's request parser and the client's response parser are equally strict.
public enum HTTPSyntax {
    /// Why a line broke the rules; the raw value is the reason a parser reports.
    public enum Violation: String, Error, Sendable {
        case emptyField = "Empty field"
        case obsoleteLineFolding = "Obsolete line folding"
        case malformedField = "Malformed header field"
        case invalidFieldValue = "Invalid character in header value"
        case chunkSizeTooLarge = "Chunk size too large"
        case malformedChunkSize = "Malformed chunk size"
        case malformedChunkExtension = "Malformed chunk extension"
    }

    /// A header (or trailer) field line without its CRLF: `name: value` with a token name, no
    /// space before the colon, no obsolete folding, and a value without control characters.
    /// The value comes without the spaces and tabs around it.
    public static func fieldLine(_ line: ArraySlice<UInt8>) -> Result<(name: String, value: String), Violation> {
        fieldLineRanges(line).map { ranges in
            (String(decoding: line[ranges.name], as: UTF8.self), String(decoding: line[ranges.value], as: UTF8.self))
        }
    }

    /// `fieldLine`'s rules, answering where the name and the value are (indices of `line`)
    /// instead of copying them.
    public static func fieldLineRanges(_ line: ArraySlice<UInt8>) -> Result<(name: Range<Int>, value: Range<Int>), Violation> {
        guard let first = line.first else { return .failure(.emptyField) }
        if first == ASCII.space || first == ASCII.tab { return .failure(.obsoleteLineFolding) }
        guard let colon = line.firstIndex(of: ASCII.colon), colon > line.startIndex,
              line[line.startIndex..<colon].allSatisfy(ASCII.isTokenChar) else {
            return .failure(.malformedField)
        }
        var valueStart = colon + 1, valueEnd = line.endIndex
        while valueStart < valueEnd, line[valueStart] == ASCII.space || line[valueStart] == ASCII.tab { valueStart += 1 }
        while valueEnd > valueStart, line[valueEnd - 1] == ASCII.space || line[valueEnd - 1] == ASCII.tab { valueEnd -= 1 }
        guard line[valueStart..<valueEnd].allSatisfy(ASCII.isFieldValueChar) else { return .failure(.invalidFieldValue) }
        return .success((line.startIndex..<colon, valueStart..<valueEnd))
    }

    /// A chunk-size line without its CRLF: 1–15 hex digits, then optionally whitespace and a
    /// chunk extension starting with `;` (allowed and ignored, but it must be clean text).
    public static func chunkSize(_ line: ArraySlice<UInt8>) -> Result<Int, Violation> {
        var size = 0, digits = 0, i = line.startIndex
        while i < line.endIndex, let value = ASCII.hexValue(line[i]) {
            digits += 1
            guard digits <= 15 else { return .failure(.chunkSizeTooLarge) }
            size = size * 16 + value
            i += 1
        }
        guard digits > 0 else { return .failure(.malformedChunkSize) }
        while i < line.endIndex, line[i] == ASCII.space || line[i] == ASCII.tab { i += 1 }
        if i < line.endIndex {
            guard line[i] == ASCII.semicolon, line[i...].allSatisfy(ASCII.isFieldValueChar) else {
                return .failure(.malformedChunkExtension)
            }
        }
        return .success(size)
    }
}
