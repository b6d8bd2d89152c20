/// Why a file could not be read as a workbook. Each case is something a seller can act on, so the
/// import names it; none of them is ever a crash.
public enum WorkbookFailure: Error, Equatable, Sendable {
    /// Not a zip archive, or a zip archive without a spreadsheet in it (a Word file, photos).
    case notAWorkbook
    /// An OLE compound file: what Excel writes for a workbook with a password (the package is
    /// encrypted inside it), and what old `.xls` files are. Also a zip whose entries are encrypted.
    case encrypted
    /// More bytes once inflated than the limit (declared or counted while inflating): a zip bomb.
    case tooLarge(maxBytes: Int)
    /// More entries in the archive than the limit.
    case tooManyEntries(max: Int)
    /// A part declares a document type. No DTD is read and no entity expanded (billion laughs,
    /// external entities): such a part is refused whatever it declares.
    case documentType
    /// A workbook without a worksheet (only chart sheets, or its sheet part is missing).
    case noSheet
    /// More rows with values than the limit (`WorkbookLimits.maxRows`).
    case tooManyRows(max: Int)
    /// A value in a column beyond the limit, on this sheet row.
    case tooManyColumns(row: Int, max: Int)
    /// The chosen sheet's cells hold more text than the limit.
    case tooMuchText(maxBytes: Int)
    /// A part that is broken: malformed XML, a failed checksum, a truncated entry.
    case damaged(part: String)
}
