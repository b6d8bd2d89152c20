import Foundation

/// The error rows of a preview as a CSV the seller fixes and imports again: their header and
/// cells as the file had them, plus a last column with each row's reasons. The importer reads
/// columns by their names and ignores that one (no field has its name), so fix → re-upload is a
/// loop; a reason column already in the file (a second round of fixes) is replaced, never doubled.
enum ImportErrorRows {
    /// UTF-8 with a byte-order mark (Korean Excel opens it right), CRLF lines, and the export's
    /// protection: a cell a spreadsheet would run as a formula gets a leading `'`, which the
    /// importer drops again.
    static func csv(header: [String], rows: [(cells: [String], reason: String)], reasonColumn: String,
                    reasonColumnNames: Set<String>) -> Data {
        let dropped = Set(header.indices.filter { reasonColumnNames.contains(header[$0].trimmingCharacters(in: .whitespaces)) })
        let width = ([header.count] + rows.map(\.cells.count)).max() ?? 0
        func kept(_ cells: [String]) -> [String] {
            let padded = cells + Array(repeating: "", count: max(0, width - cells.count))
            return padded.indices.filter { !dropped.contains($0) }.map { padded[$0] }
        }
        var text = CatalogCSV.byteOrderMark
        text += line(kept(header) + [reasonColumn])
        for row in rows { text += line(kept(row.cells) + [row.reason]) }
        return Data(text.utf8)
    }

    /// The reason column's header in every language the panel speaks: a file downloaded in
    /// English may come back while the page is in Korean.
    static func reasonColumnNames(_ catalogs: StringCatalogs) -> Set<String> {
        Set(Language.allCases.compactMap { catalogs[$0].texts["import_errors_column"] })
    }

    private static func line(_ cells: [String]) -> String {
        cells.map(CatalogCSV.cell).joined(separator: ",") + "\r\n"
    }
}
