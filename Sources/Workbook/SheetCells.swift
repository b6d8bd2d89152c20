/// A worksheet part read into its values, within the limits: rows by their sheet number, cells by
/// their column (`C7` is row 7, column 3), gaps left empty. Cells without a value (formatting
/// only) are skipped; a shared string stays an index until the strings are read.
struct SheetCells {
    enum Value: Equatable {
        case text(String)
        case sharedString(Int)
    }

    /// Rows with at least one value, by sheet row number; in each, values by column (1-based).
    private(set) var rows: [Int: [Int: Value]] = [:]
    /// The shared strings the cells use.
    private(set) var sharedStringsUsed: Set<Int> = []
    /// Bytes of text kept so far (shared strings count when they are read).
    private(set) var textBytes = 0

    init(part: String, in archive: ZipArchive, styles: CellStyles, dates1904: Bool,
         limits: WorkbookLimits) throws(WorkbookFailure) {
        let handler = Handler(part: part, styles: styles, dates1904: dates1904, limits: limits)
        guard try XMLPart.read(part, from: archive, into: handler) else { throw .noSheet }
        rows = handler.rows
        sharedStringsUsed = handler.sharedStringsUsed
        textBytes = handler.textBytes
    }

    /// The cell reference's column: `A` = 1 … `XFD` = 16,384; nil for anything else.
    static func column(ofReference reference: String) -> Int? {
        var column = 0
        var letters = 0
        for byte in reference.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): column = column * 26 + Int(byte - UInt8(ascii: "A")) + 1
            case UInt8(ascii: "a")...UInt8(ascii: "z"): column = column * 26 + Int(byte - UInt8(ascii: "a")) + 1
            case UInt8(ascii: "$"): continue
            default:
                guard letters > 0 else { return nil }
                return column <= 16_384 ? column : nil
            }
            letters += 1
            if letters > 3 { return nil }
        }
        return letters > 0 && column <= 16_384 ? column : nil
    }

    private final class Handler: XMLEventHandler {
        let part: String
        let styles: CellStyles
        let dates1904: Bool
        let limits: WorkbookLimits

        var rows: [Int: [Int: Value]] = [:]
        var sharedStringsUsed: Set<Int> = []
        var textBytes = 0

        private var inSheetData = false
        private var rowNumber = 0
        private var column = 0
        /// The current cell's type (`t`) and whether its style is a date.
        private var cellType = "n"
        private var cellIsDate = false
        private var inCell = false
        /// What is being collected: the `<v>` of a cell, or the `<t>` runs of an inline string.
        private var capturing = false
        private var inInlineString = false
        private var inPhonetic = false
        private var value: [UInt8] = []
        private var inlineText: [UInt8] = []
        private var hasInlineText = false
        private var hasValue = false

        init(part: String, styles: CellStyles, dates1904: Bool, limits: WorkbookLimits) {
            self.part = part
            self.styles = styles
            self.dates1904 = dates1904
            self.limits = limits
        }

        func start(_ name: String, _ attributes: XMLAttributes) throws(WorkbookFailure) {
            switch name {
            case "sheetData":
                inSheetData = true
            case "row" where inSheetData:
                if let text = attributes["r"] {
                    guard let number = Int(text), (1...1_048_576).contains(number) else { throw .damaged(part: part) }
                    rowNumber = number
                } else {
                    rowNumber += 1
                }
                column = 0
            case "c" where inSheetData:
                if let reference = attributes["r"] {
                    guard let referenced = SheetCells.column(ofReference: reference) else { throw .damaged(part: part) }
                    column = referenced
                } else {
                    column += 1
                }
                if rowNumber == 0 { rowNumber = 1 }
                cellType = attributes["t"] ?? "n"
                cellIsDate = attributes["s"].flatMap { Int($0) }.map(styles.isDate(style:)) ?? false
                inCell = true
                hasValue = false
                hasInlineText = false
                value.removeAll(keepingCapacity: true)
                inlineText.removeAll(keepingCapacity: true)
            case "v" where inCell:
                capturing = true
                hasValue = true
            case "is" where inCell:
                inInlineString = true
            case "rPh" where inInlineString:
                // Phonetic guides (furigana) are not part of the text.
                inPhonetic = true
            case "t" where inInlineString && !inPhonetic:
                capturing = true
                hasInlineText = true
            default: break
            }
        }

        func end(_ name: String) throws(WorkbookFailure) {
            switch name {
            case "sheetData": inSheetData = false
            case "v", "t": capturing = false
            case "rPh": inPhonetic = false
            case "is": inInlineString = false
            case "c" where inCell:
                inCell = false
                capturing = false
                try finishCell()
            default: break
            }
        }

        func text(_ bytes: UnsafeBufferPointer<UInt8>) throws(WorkbookFailure) {
            guard capturing else { return }
            if inInlineString { inlineText.append(contentsOf: bytes) } else { value.append(contentsOf: bytes) }
            guard textBytes + value.count + inlineText.count <= limits.maxCellTextBytes else {
                throw .tooMuchText(maxBytes: limits.maxCellTextBytes)
            }
        }

        private func finishCell() throws(WorkbookFailure) {
            let raw = String(decoding: value, as: UTF8.self)
            let cell: Value
            switch cellType {
            case "s":
                guard hasValue else { return }
                guard let index = Int(raw.trimmingSpaces()), index >= 0 else { throw .damaged(part: part) }
                cell = .sharedString(index)
            case "inlineStr":
                if hasInlineText {
                    cell = .text(CellText.unescaped(String(decoding: inlineText, as: UTF8.self)))
                } else if hasValue {
                    cell = .text(CellText.unescaped(raw))
                } else {
                    return
                }
            case "str":
                guard hasValue else { return }
                cell = .text(CellText.unescaped(raw))
            case "b":
                guard hasValue else { return }
                cell = .text(CellText.boolean(raw))
            case "e", "d":
                // An error shows as its code (`#N/A`); a strict-format date is already ISO 8601 text.
                guard hasValue else { return }
                cell = .text(raw.trimmingSpaces())
            default:
                guard hasValue, !raw.trimmingSpaces().isEmpty else { return }
                cell = .text(cellIsDate ? CellText.date(raw, dates1904: dates1904) : CellText.number(raw))
            }
            if case .text(let text) = cell, text.isEmpty { return }
            guard column <= limits.maxColumns else { throw .tooManyColumns(row: rowNumber, max: limits.maxColumns) }
            if rows[rowNumber] == nil {
                guard rows.count < limits.maxRows else { throw .tooManyRows(max: limits.maxRows) }
                rows[rowNumber] = [:]
            }
            switch cell {
            case .text(let text): textBytes += text.utf8.count
            case .sharedString(let index): sharedStringsUsed.insert(index)
            }
            rows[rowNumber]![column] = cell
        }
    }
}
