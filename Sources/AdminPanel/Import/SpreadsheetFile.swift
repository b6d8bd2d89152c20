import Foundation
import Workbook

/// The records of an uploaded spreadsheet, a CSV or an Excel workbook, told apart by the file's
/// first bytes (never its name: a renamed file is still what it is). A workbook's rows become the
/// same records a CSV gives, each at its sheet row, so the planner, preview and apply take both
/// alike. An OLE file (a password-protected workbook, an old `.xls`) is refused by the workbook
/// reader with its own reason.
enum SpreadsheetFile {
    static let maxColumns = 100
    /// One column more than `maxColumns` is read, so that a file of 100 columns can come back
    /// with the error download's reason column; `records` then holds the others to the limit.
    static let workbookLimits = WorkbookLimits(maxRows: ImportService.maxRows + 1, maxColumns: maxColumns + 1)

    /// Throws `CSVTextDecoder.Failure` or `CSVReader.Failure` for text, `WorkbookFailure` for a
    /// workbook. `reasonColumnNames` are the error download's reason column in every language:
    /// such a column is not counted in the column limit (the importer ignores it anyway). CPU
    /// work: run it off the event loops.
    static func records(from data: Data, reasonColumnNames: Set<String>) throws -> [CSVReader.Record] {
        let records: [CSVReader.Record]
        switch FileSignature.detect(data) {
        case .zip, .ole:
            let sheet: WorkbookSheet
            do { sheet = try WorkbookReader.read(data, limits: workbookLimits) } catch { throw naming(maxColumns, in: error) }
            records = sheet.rows.map { CSVReader.Record(line: $0.number, cells: $0.cells) }
        case .other:
            let text = try CSVTextDecoder.decode(data).text
            let reader = CSVReader(maxColumns: maxColumns + 1, maxRecords: ImportService.maxRows + 1)
            do { records = SpreadsheetRows.numbered(try reader.read(text)) } catch { throw naming(maxColumns, in: error) }
        }
        let hasReasonColumn = records.first?.cells.contains { reasonColumnNames.contains($0.trimmingCharacters(in: .whitespaces)) } ?? false
        let allowed = maxColumns + (hasReasonColumn ? 1 : 0)
        if let wide = records.first(where: { $0.cells.count > allowed }) {
            throw CSVReader.Failure.tooManyColumns(line: wide.line, max: maxColumns)
        }
        return records
    }

    /// A reader's refusal for too many columns names our limit, not the one column over it they read.
    private static func naming(_ limit: Int, in failure: some Error) -> any Error {
        switch failure {
        case let workbook as WorkbookFailure:
            if case .tooManyColumns(let row, _) = workbook { return WorkbookFailure.tooManyColumns(row: row, max: limit) }
        case let csv as CSVReader.Failure:
            if case .tooManyColumns(let line, _) = csv { return CSVReader.Failure.tooManyColumns(line: line, max: limit) }
        default: break
        }
        return failure
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
