import Foundation
import NetworkIO
import OpenMarketCore
import Workbook

/// The Excel export of a view (`GET /products/export.xlsx`): one sheet `products` with the CSV
/// export's columns. Ids, amounts and stock are number cells (Excel keeps every digit of an id and
/// sums a price column), names and URLs are text cells (a name starting with `=` is shown as
/// written, never run), the dates are date cells.
///
/// The workbook is written by libxlsxwriter into this process's scratch folder under `DATA`, read
/// back and removed, one export at a time on a thread of its own (an export of 10,000 products is
/// CPU and file work that must not hold an event loop or queue up cores).
final class CatalogWorkbook: Sendable {
    static let sheetName = "products"
    static let header = CatalogCSV.header.split(separator: ",").map(String.init)
    static let contentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

    let directory: URL
    private let thread = BlockingThread()

    init(directory: URL) {
        self.directory = directory
    }

    /// The workbook's bytes for these products of the snapshot, in this order.
    func make(_ snapshot: CatalogSnapshot, order: [Int32]) async throws -> Data {
        let directory = directory
        return try await thread.run {
            let file = directory.appendingPathComponent("export-\(SecureToken.make(byteCount: 12)).xlsx")
            defer { try? FileManager.default.removeItem(at: file) }
            let writer = WorkbookWriter(sheetName: Self.sheetName, header: Self.header, temporaryDirectory: directory.path)
            try writer.write(to: file.path, rowCount: order.count) { index in
                Self.cells(snapshot.products[Int(order[index])])
            }
            return try Data(contentsOf: file)
        }
    }

    /// The export for editing (`CatalogEditExport`): its header in `language`, the read-only
    /// columns' headers grey. Same sheet name, so the import finds it as it finds the export's.
    func makeForEditing(_ rows: [CatalogEditExport.Row], language: Language) async throws -> Data {
        let directory = directory
        return try await thread.run {
            let file = directory.appendingPathComponent("export-\(SecureToken.make(byteCount: 12)).xlsx")
            defer { try? FileManager.default.removeItem(at: file) }
            let writer = WorkbookWriter(sheetName: Self.sheetName, header: EditExportColumns.header(language),
                                        temporaryDirectory: directory.path, readOnlyColumns: EditExportColumns.readOnlyIndexes)
            try writer.write(to: file.path, rowCount: rows.count) { index in CatalogEditExport.cells(rows[index]) }
            return try Data(contentsOf: file)
        }
    }

    /// One product's cells, in the header's order.
    static func cells(_ product: CatalogProduct) -> [WorkbookCell] {
        [
            .number(Double(product.id), .plain),
            .text(product.name),
            product.vendorName.map { .text($0) } ?? .number(Double(product.vendorID), .plain),
            .text(product.currency.rawValue),
            amount(product.price, product.currency),
            amount(product.discountedPrice, product.currency),
            amount(product.bargainPrice, product.currency),
            .number(Double(product.stock), .grouped),
            date(product.createdAt),
            date(product.issuedAt),
            product.thumbnail.isEmpty ? .empty : .text(product.thumbnail),
        ]
    }

    static func amount(_ value: Double, _ currency: Currency) -> WorkbookCell {
        guard value.isFinite else { return .empty }
        return .number(value, currency == .KRW ? .grouped : .cents)
    }

    /// The API's dates have day precision; a date no spreadsheet can hold stays ISO text.
    static func date(_ value: Date) -> WorkbookCell {
        let (year, month, day) = DisplayDate.parts(value)
        guard let date = WorkbookDate(year: year, month: month, day: day) else { return .text(DisplayDate.iso(value)) }
        return .date(date)
    }
}
