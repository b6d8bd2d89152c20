import Foundation
import OpenMarketCore
import Workbook

/// The export for editing: each product of a view with its description, as the import reads it
/// back (`EditExportColumns`). Cells are written as the CSV export writes them (amounts as plain
/// numbers, formula-looking text behind a `'`, which the import drops), so a file exported and
/// imported without an edit previews every row as unchanged.
enum CatalogEditExport {
    /// One product as read from the API (the copy keeps no descriptions).
    struct Row: Sendable, Equatable {
        var product: CatalogProduct
        var description: String
    }

    /// The whole CSV: a UTF-8 BOM, the header in `language`, CRLF lines.
    static func csv(_ rows: [Row], language: Language) -> Data {
        var text = CatalogCSV.byteOrderMark + EditExportColumns.header(language).map(CatalogCSV.cell).joined(separator: ",") + "\r\n"
        for row in rows {
            text += csvFields(row).map(CatalogCSV.cell).joined(separator: ",") + "\r\n"
        }
        return Data(text.utf8)
    }

    /// One product's cells as text, in `EditExportColumns.all`'s order. The vendor is its name
    /// when the API gives one (v2b), else its id.
    static func csvFields(_ row: Row) -> [String] {
        let product = row.product
        return [
            String(product.id), product.name, row.description,
            CatalogCSV.amount(product.price, product.currency), product.currency.rawValue,
            CatalogCSV.amount(product.discountedPrice, product.currency), String(product.stock),
            product.vendorName ?? String(product.vendorID), CatalogCSV.amount(product.bargainPrice, product.currency),
            DisplayDate.iso(product.createdAt), DisplayDate.iso(product.issuedAt), product.thumbnail,
        ]
    }

    /// One product's workbook cells, typed as the Excel export types them.
    static func cells(_ row: Row) -> [WorkbookCell] {
        let product = row.product
        return [
            .number(Double(product.id), .plain),
            .text(product.name),
            row.description.isEmpty ? .empty : .text(row.description),
            CatalogWorkbook.amount(product.price, product.currency),
            .text(product.currency.rawValue),
            CatalogWorkbook.amount(product.discountedPrice, product.currency),
            .number(Double(product.stock), .grouped),
            product.vendorName.map { .text($0) } ?? .number(Double(product.vendorID), .plain),
            CatalogWorkbook.amount(product.bargainPrice, product.currency),
            CatalogWorkbook.date(product.createdAt),
            CatalogWorkbook.date(product.issuedAt),
            product.thumbnail.isEmpty ? .empty : .text(product.thumbnail),
        ]
    }
}
