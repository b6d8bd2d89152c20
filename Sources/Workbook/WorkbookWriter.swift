import CXLSXWriter
#if canImport(Glibc)
import Glibc
#endif

/// One cell of a table to write.
public enum WorkbookCell: Sendable, Equatable {
    /// Text, always a string cell: `=1+1` stays those four characters, never a formula.
    case text(String)
    case number(Double, WorkbookNumberFormat)
    case date(WorkbookDate)
    case empty
}

public enum WorkbookNumberFormat: String, Sendable, CaseIterable {
    /// Digits only (ids, counts): `1234567`.
    case plain = "0"
    /// Whole amounts with grouping: `12,000`.
    case grouped = "#,##0"
    /// Amounts with cents: `12.50`.
    case cents = "#,##0.00"
}

/// A date and time as a spreadsheet shows it (no time zone: cells have none), shown as
/// `2026-11-27`, or `2026-11-27 09:30:00` when it has a time of day. Years 1900–9999 only
/// (what a spreadsheet's date cells can hold).
public struct WorkbookDate: Sendable, Equatable {
    public var year, month, day, hour, minute, second: Int

    /// nil outside those years or for parts no calendar has.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (1900...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
              (0...59).contains(minute), (0...59).contains(second) else { return nil }
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }
}

public struct WorkbookWriteFailure: Error, CustomStringConvertible {
    public let description: String
}

/// Writes one table as a one-sheet `.xlsx` workbook with libxlsxwriter: the header bold and
/// frozen (it stays in view while scrolling) with a filter on it, each column as wide as its
/// widest cell within bounds, numbers as numbers and text as text. Columns named read-only get a
/// grey header, the look spreadsheets give cells that are not to be typed in.
///
/// Rows are asked for one at a time and written in order in libxlsxwriter's constant-memory mode,
/// so a large table never sits in memory twice; its temporary files go to `temporaryDirectory`.
public struct WorkbookWriter {
    public var sheetName: String
    public var header: [String]
    public var temporaryDirectory: String
    /// Indexes of the header's columns shown as read-only.
    public var readOnlyColumns: Set<Int>

    public init(sheetName: String, header: [String], temporaryDirectory: String, readOnlyColumns: Set<Int> = []) {
        self.sheetName = sheetName
        self.header = header
        self.temporaryDirectory = temporaryDirectory
        self.readOnlyColumns = readOnlyColumns
    }

    /// The grey of a read-only header (Excel's "White, Background 1, Darker 15%").
    static let readOnlyFill: UInt32 = 0xD9D9D9

    /// Excel's limit for the text of one cell (libxlsxwriter counts it in bytes).
    static let maxCellBytes = 32_767
    static let minWidth = 6.0
    static let maxWidth = 60.0

    public func write(to path: String, rowCount: Int, row: (Int) -> [WorkbookCell]) throws(WorkbookWriteFailure) {
        let tmpdir = strdup(temporaryDirectory)
        defer { free(tmpdir) }
        var options = lxw_workbook_options(constant_memory: 1, tmpdir: tmpdir, use_zip64: 0)
        guard let workbook = workbook_new_opt(path, &options) else {
            throw WorkbookWriteFailure(description: "libxlsxwriter could not create \(path)")
        }
        var firstError = LXW_NO_ERROR
        func check(_ error: lxw_error) {
            if firstError == LXW_NO_ERROR, error != LXW_NO_ERROR { firstError = error }
        }
        let sheet = workbook_add_worksheet(workbook, sheetName)
        let bold = workbook_add_format(workbook)
        format_set_bold(bold)
        // Made only when needed: a workbook without read-only columns keeps exactly its styles.
        var readOnlyHeader: UnsafeMutablePointer<lxw_format>?
        if !readOnlyColumns.isEmpty {
            readOnlyHeader = workbook_add_format(workbook)
            format_set_bold(readOnlyHeader)
            format_set_bg_color(readOnlyHeader, Self.readOnlyFill)
        }
        var numberFormats: [WorkbookNumberFormat: UnsafeMutablePointer<lxw_format>] = [:]
        for format in WorkbookNumberFormat.allCases {
            let cellFormat = workbook_add_format(workbook)
            format_set_num_format(cellFormat, format.rawValue)
            numberFormats[format] = cellFormat
        }
        let dateFormat = workbook_add_format(workbook)
        format_set_num_format(dateFormat, "yyyy-mm-dd")
        let dateTimeFormat = workbook_add_format(workbook)
        format_set_num_format(dateTimeFormat, "yyyy-mm-dd hh:mm:ss")

        if let sheet {
            var widths = header.map { Self.displayWidth($0) }
            for (column, title) in header.enumerated() {
                let format = readOnlyColumns.contains(column) ? readOnlyHeader : bold
                check(worksheet_write_string(sheet, 0, lxw_col_t(column), Self.cellText(title), format))
            }
            for index in 0..<rowCount {
                let cells = row(index)
                let sheetRow = lxw_row_t(index + 1)
                for (column, cell) in cells.enumerated() where column < header.count {
                    let sheetColumn = lxw_col_t(column)
                    var width = 0
                    switch cell {
                    case .text(let text):
                        let value = Self.cellText(text)
                        check(worksheet_write_string(sheet, sheetRow, sheetColumn, value, nil))
                        width = Self.displayWidth(value)
                    case .number(let value, let format):
                        guard value.isFinite else { continue }
                        check(worksheet_write_number(sheet, sheetRow, sheetColumn, value, numberFormats[format]))
                        width = Self.numberWidth(value, format)
                    case .date(let date):
                        var parts = lxw_datetime(year: Int32(date.year), month: Int32(date.month), day: Int32(date.day),
                                                 hour: Int32(date.hour), min: Int32(date.minute), sec: Double(date.second))
                        let timeOfDay = date.hour != 0 || date.minute != 0 || date.second != 0
                        check(worksheet_write_datetime(sheet, sheetRow, sheetColumn, &parts, timeOfDay ? dateTimeFormat : dateFormat))
                        width = timeOfDay ? 19 : 10
                    case .empty:
                        continue
                    }
                    widths[column] = max(widths[column], width)
                }
            }
            for (column, width) in widths.enumerated() {
                let columnWidth = min(Self.maxWidth, max(Self.minWidth, Double(width) + 2))
                check(worksheet_set_column(sheet, lxw_col_t(column), lxw_col_t(column), columnWidth, nil))
            }
            worksheet_freeze_panes(sheet, 1, 0)
            if !header.isEmpty {
                check(worksheet_autofilter(sheet, 0, 0, lxw_row_t(rowCount), lxw_col_t(header.count - 1)))
            }
        }
        // Closing writes the file and frees everything, whether or not a cell failed above.
        let closed = workbook_close(workbook)
        guard sheet != nil else { throw WorkbookWriteFailure(description: "libxlsxwriter could not add the sheet") }
        check(closed)
        guard firstError == LXW_NO_ERROR else {
            throw WorkbookWriteFailure(description: "libxlsxwriter: " + String(cString: lxw_strerror(firstError)))
        }
    }

    /// Text a cell can hold: no control characters XML cannot carry (tab and line breaks stay),
    /// an `_xHHHH_` that is really text kept as text (readers would decode it), at most Excel's
    /// limit, cut at a character boundary.
    static func cellText(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: scalars.append(scalar)
            case 0x00..<0x20, 0xFFFE, 0xFFFF: continue
            default: scalars.append(scalar)
            }
        }
        var value = String(scalars)
        if value.contains("_x") { value = escapeLiteralEscapes(value) }
        guard value.utf8.count > maxCellBytes else { return value }
        var cut = ""
        var bytes = 0
        for character in value {
            bytes += character.utf8.count
            if bytes > maxCellBytes { break }
            cut.append(character)
        }
        return cut
    }

    /// `_x0041_` written as text becomes `_x005F_x0041_`, which every reader decodes back to it.
    private static func escapeLiteralEscapes(_ text: String) -> String {
        let units = Array(text.utf16)
        var out: [UInt16] = []
        out.reserveCapacity(units.count)
        for (index, unit) in units.enumerated() {
            if unit == 0x5F, index + 6 < units.count, units[index + 1] == 0x78, units[index + 6] == 0x5F,
               units[(index + 2)...(index + 5)].allSatisfy(isHexDigit) {
                out.append(contentsOf: Array("_x005F_".utf16))
            } else {
                out.append(unit)
            }
        }
        return String(decoding: out, as: UTF16.self)
    }

    private static func isHexDigit(_ unit: UInt16) -> Bool {
        (0x30...0x39).contains(unit) || (0x41...0x46).contains(unit) || (0x61...0x66).contains(unit)
    }

    /// Columns are measured in characters of the default font; Hangul and CJK take two.
    static func displayWidth(_ text: String) -> Int {
        var width = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6:
                width += 2
            default:
                width += 1
            }
        }
        return width
    }

    private static func numberWidth(_ value: Double, _ format: WorkbookNumberFormat) -> Int {
        let digits = String(Int64(exactly: value.rounded()) ?? 0).count
        switch format {
        case .plain: return digits
        case .grouped: return digits + (digits - 1) / 3
        case .cents: return digits + (digits - 1) / 3 + 3
        }
    }
}
