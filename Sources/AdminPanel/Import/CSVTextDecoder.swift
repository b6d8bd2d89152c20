import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The bytes of an uploaded spreadsheet as text. Korean Excel saves "CSV" in CP949 (EUC-KR with
/// Microsoft's extra syllables), everything else in UTF-8 (Excel's "CSV UTF-8" with a BOM). A
/// file that is valid UTF-8 is read as UTF-8; otherwise glibc's `iconv` tries CP949. Anything
/// else (UTF-16, Latin-1 that is not CP949, images, archives) is refused rather than guessed.
enum CSVTextDecoder {
    enum Encoding: String, Sendable { case utf8 = "UTF-8", cp949 = "CP949" }

    enum Failure: Error, Equatable {
        /// NUL bytes or other control bytes: not a text file at all.
        case binary
        /// Text, but neither UTF-8 nor CP949 (UTF-16 included).
        case unknownEncoding
        case empty
    }

    static func decode(_ data: Data) throws(Failure) -> (text: String, encoding: Encoding) {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { throw .unknownEncoding }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { throw .empty }
        if bytes.contains(where: isBinaryByte) { throw .binary }
        if let text = String(validating: bytes, as: UTF8.self) { return (text, .utf8) }
        guard let text = convertCP949(bytes) else { throw .unknownEncoding }
        return (text, .cp949)
    }

    /// Control bytes no spreadsheet writes (tab, line feed and carriage return are text).
    private static func isBinaryByte(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D || byte == 0x7F
    }

    /// CP949 → UTF-8 through glibc's iconv; nil on any byte sequence CP949 does not define.
    static func convertCP949(_ bytes: [UInt8]) -> String? {
        let converter = iconv_open("UTF-8", "CP949")
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        // Every CP949 character (1 or 2 bytes) is at most 3 UTF-8 bytes.
        // iconv takes C pointers to both buffers; both are CChar arrays so that no memory bound
        // to UInt8 is read as CChar (once per import, not hot: the copies are fine).
        var output = [CChar](repeating: 0, count: bytes.count * 2 + 16)
        var input = bytes.map { CChar(bitPattern: $0) }
        let result: Int = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer = inBuffer.baseAddress
                var inLeft = inBuffer.count
                var outPointer = outBuffer.baseAddress
                var outLeft = outBuffer.count
                let status = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                guard status != -1, inLeft == 0 else { return -1 }
                return outBuffer.count - outLeft
            }
        }
        guard result >= 0 else { return nil }
        return String(validating: output[..<result].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
