/// `xl/workbook.xml`: the sheets in their tab order, each with its name and relationship id,
/// and whether dates count from 1904 (old Mac workbooks) instead of 1900.
struct WorkbookPart {
    struct Sheet: Equatable {
        var name: String
        var relationshipID: String
    }

    private(set) var sheets: [Sheet] = []
    private(set) var dates1904 = false

    /// nil when the part is missing or is not a workbook (a Word document's main part, say).
    static func read(_ name: String, from archive: ZipArchive) throws(WorkbookFailure) -> WorkbookPart? {
        let handler = Handler()
        guard try XMLPart.read(name, from: archive, into: handler), handler.isWorkbook else { return nil }
        return WorkbookPart(sheets: handler.sheets, dates1904: handler.dates1904)
    }

    private final class Handler: XMLEventHandler {
        var sheets: [Sheet] = []
        var dates1904 = false
        /// Whether the root element is `workbook`.
        var isWorkbook = false
        private var started = false

        func start(_ name: String, _ attributes: XMLAttributes) throws(WorkbookFailure) {
            if !started {
                started = true
                isWorkbook = name == "workbook"
            }
            switch name {
            case "sheet":
                guard let sheetName = attributes["name"], let id = attributes["id"] else { return }
                sheets.append(Sheet(name: sheetName, relationshipID: id))
                // Excel allows a few hundred sheets in practice; a list this long is no workbook.
                if sheets.count > 10_000 { throw .damaged(part: "workbook") }
            case "workbookPr":
                let value = attributes["date1904"]
                dates1904 = value == "1" || value == "true"
            default: break
            }
        }

        func end(_ name: String) throws(WorkbookFailure) {}
        func text(_ bytes: UnsafeBufferPointer<UInt8>) throws(WorkbookFailure) {}
    }
}
