/// One sheet of a workbook as rows of text, the shape a CSV of it would have.
public struct WorkbookSheet: Sendable, Equatable {
    public var name: String
    /// Rows with at least one non-blank cell, in sheet order.
    public var rows: [WorkbookRow]
}

public struct WorkbookRow: Sendable, Equatable {
    /// The row's number on the sheet (what the spreadsheet shows at its left edge).
    public var number: Int
    /// From column A up to the row's last value; empty cells are "".
    public var cells: [String]

    public init(number: Int, cells: [String]) {
        self.number = number
        self.cells = cells
    }
}

/// Reads an `.xlsx` workbook (Office Open XML spreadsheet) held in memory: the sheet named
/// `products` or `상품` (any case), else the first worksheet, as rows of text.
///
/// minizip opens the zip and expat reads each XML part while it is inflated; the package's
/// relationships, the sheet list, shared strings, inline strings, number and date styles are
/// this module's own small code. Cells read as a CSV of the sheet would hold them: shared and
/// inline strings as their text (rich-text runs joined), numbers as `12000` or `0.5`, booleans
/// as `TRUE`/`FALSE`, a formula as its cached value, a date as ISO 8601 text.
public enum WorkbookReader {
    /// Sheet names that hold the products, whatever their position.
    public static let productSheetNames = ["products", "상품"]

    public static func read(_ bytes: some Collection<UInt8>, limits: WorkbookLimits = WorkbookLimits()) throws(WorkbookFailure) -> WorkbookSheet {
        switch FileSignature.detect(bytes) {
        case .ole: throw .encrypted
        case .other: throw .notAWorkbook
        case .zip: break
        }
        let archive = try ZipArchive(bytes, limits: limits)
        let package = try PackageRelationships(of: "", in: archive)
        let workbookName = package.first(ofKind: "officeDocument") ?? "xl/workbook.xml"
        guard let workbook = try WorkbookPart.read(workbookName, from: archive) else { throw .notAWorkbook }
        let parts = try PackageRelationships(of: workbookName, in: archive)

        let worksheets = workbook.sheets.compactMap { sheet -> (name: String, part: String)? in
            guard let target = parts.byID[sheet.relationshipID], target.type.hasSuffix("/worksheet"),
                  archive.contains(target.target) else { return nil }
            return (sheet.name, target.target)
        }
        let chosen = worksheets.first { sheet in productSheetNames.contains(sheet.name.trimmingSpaces().lowercased()) }
            ?? worksheets.first
        guard let chosen else { throw .noSheet }

        var styles = CellStyles()
        if let stylesPart = parts.first(ofKind: "styles"), archive.contains(stylesPart) {
            styles = try CellStyles(part: stylesPart, in: archive)
        }
        let cells = try SheetCells(part: chosen.part, in: archive, styles: styles, dates1904: workbook.dates1904, limits: limits)
        var shared = [Int: String]()
        if !cells.sharedStringsUsed.isEmpty {
            guard let stringsPart = parts.first(ofKind: "sharedStrings") else { throw .damaged(part: chosen.part) }
            shared = try SharedStrings(part: stringsPart, in: archive, needed: cells.sharedStringsUsed,
                                       textBytesSoFar: cells.textBytes, limits: limits).strings
        }

        var rows: [WorkbookRow] = []
        for number in cells.rows.keys.sorted() {
            let values = cells.rows[number]!
            var row = [String](repeating: "", count: values.keys.max() ?? 0)
            for (column, value) in values {
                switch value {
                case .text(let text): row[column - 1] = text
                case .sharedString(let index):
                    guard let text = shared[index] else { throw .damaged(part: chosen.part) }
                    row[column - 1] = text
                }
            }
            // As in a CSV, a row of blank cells is no record.
            if row.allSatisfy({ $0.trimmingSpaces().isEmpty }) { continue }
            rows.append(WorkbookRow(number: number, cells: row))
        }
        return WorkbookSheet(name: chosen.name, rows: rows)
    }
}
