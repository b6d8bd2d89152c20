import Foundation
import Workbook

/// The records of an uploaded spreadsheet, a CSV or an Excel workbook, told apart by the file's
/// first bytes (never its name: a renamed file is still what it is). A workbook's rows become the
/// same records a CSV gives, each at its sheet row, so the planner, preview and apply take both
/// alike. An OLE file (a password-protected workbook, an old `.xls`) is refused by the workbook
/// reader with its own reason.
enum SpreadsheetFile {
    static let workbookLimits = WorkbookLimits(maxRows: ImportService.maxRows + 1, maxColumns: maxColumns)
    static let maxColumns = 100

    /// Throws `CSVTextDecoder.Failure` or `CSVReader.Failure` for text, `WorkbookFailure` for a
    /// workbook. CPU work: run it off the event loops.
    static func records(from data: Data) throws -> [CSVReader.Record] {
        switch FileSignature.detect(data) {
        case .zip, .ole:
            let sheet = try WorkbookReader.read(data, limits: workbookLimits)
            return sheet.rows.map { CSVReader.Record(line: $0.number, cells: $0.cells) }
        case .other:
            let text = try CSVTextDecoder.decode(data).text
            return SpreadsheetRows.numbered(try CSVReader(maxColumns: maxColumns, maxRecords: ImportService.maxRows + 1).read(text))
        }
    }

    /// Why a workbook was refused, as the import page says it.
    static func message(_ failure: WorkbookFailure, file: String, _ l: Localizer) -> String {
        switch failure {
        case .notAWorkbook: l("xlsx_error_not_workbook", ["file": file])
        case .encrypted: l("xlsx_error_encrypted", ["file": file])
        case .tooLarge(let maxBytes): l("xlsx_error_too_large", ["file": file, "size": l.number(maxBytes >> 20)])
        case .tooManyEntries(let max): l("xlsx_error_entries", ["file": file, "max": l.number(max)])
        case .documentType: l("xlsx_error_document_type", ["file": file])
        case .noSheet: l("xlsx_error_no_sheet", ["file": file])
        case .tooManyRows: l("import_error_rows", ["max": l.number(ImportService.maxRows)])
        case .tooManyColumns(let row, let max): l("import_error_columns", ["line": l.number(row), "max": l.number(max)])
        case .tooMuchText(let maxBytes): l("xlsx_error_text", ["size": l.number(maxBytes >> 20)])
        case .damaged(let part): l("xlsx_error_damaged", ["file": file, "part": part])
        }
    }
}
