/// A CSV record's row as a spreadsheet numbers it: the header is row 1 and every record one row
/// more, however many line breaks its cells hold (Alt+Enter in Excel). `CSVReader` gives the file
/// line a record starts on; after a two-line description the file lines run one ahead of the rows
/// a seller sees in Excel, so the preview would send them to the wrong row.
enum SpreadsheetRows {
    /// The same records, each `line` now its spreadsheet row. Lines before the header (Excel's
    /// `sep=` hint) are no rows; blank lines between records are (a spreadsheet shows them empty).
    static func numbered(_ records: [CSVReader.Record]) -> [CSVReader.Record] {
        guard let header = records.first else { return [] }
        var linesNotRows = header.line - 1
        return records.map { record in
            var numbered = record
            numbered.line = record.line - linesNotRows
            linesNotRows += record.cells.reduce(0) { $0 + lineBreaks(in: $1) }
            return numbered
        }
    }

    /// Line breaks as `CSVReader` counts lines: LF, CR LF and a lone CR each one.
    static func lineBreaks(in cell: String) -> Int {
        var count = 0
        var afterCR = false
        for byte in cell.utf8 {
            if byte == UInt8(ascii: "\n") { if !afterCR { count += 1 } } else if byte == UInt8(ascii: "\r") { count += 1 }
            afterCR = byte == UInt8(ascii: "\r")
        }
        return count
    }
}
