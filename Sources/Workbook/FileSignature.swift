/// What a file is by its first bytes, never by its name: sellers rename files, and browsers send
/// whatever type the name suggests.
public enum FileSignature: Sendable, Equatable {
    /// A zip archive: an `.xlsx` workbook, or some other zip.
    case zip
    /// An OLE compound file: an encrypted workbook or an old `.xls`.
    case ole
    /// Anything else (a CSV, when it is text).
    case other

    public static func detect<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> FileSignature {
        // A local file header first; an empty archive is only its end record.
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .zip }
        if bytes.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return .ole }
        return .other
    }
}
