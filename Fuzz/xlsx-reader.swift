// fuzz-module-of: WorkbookReader.swift
// Fuzz target: the .xlsx workbook reader the import runs on every uploaded workbook. An even
// first byte: the rest is the uploaded file as it is (minizip's way into the archive). An odd
// one: the rest is split at NUL bytes into a sheet, a shared-string table, a style sheet and,
// when given, a workbook part, put in a zip that opens, so the XML readers and the cell model
// are reached. Besides never crashing, hanging or growing without bound, whatever is read
// keeps the limits: rows in sheet order, none blank, none past the row and column limits.

private let limits: WorkbookLimits = {
    var limits = WorkbookLimits(maxRows: 50, maxColumns: 20)
    limits.maxCellTextBytes = 64 * 1024
    return limits
}()

private let workbookPart = Array("""
    <workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>\
    <sheet name="notes" sheetId="1" r:id="rId2"/><sheet name="products" sheetId="2" r:id="rId1"/></sheets></workbook>
    """.utf8)

private let workbookRelationships = Array("""
    <Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/>\
    <Relationship Id="rId2" Type="x/worksheet" Target="/xl/worksheets/sheet1.xml"/>\
    <Relationship Id="rId3" Type="x/sharedStrings" Target="sharedStrings.xml"/>\
    <Relationship Id="rId4" Type="x/styles" Target="../xl/styles.xml"/></Relationships>
    """.utf8)

private let packageRelationships = Array("""
    <Relationships><Relationship Id="rId1" Type="x/officeDocument" Target="xl/workbook.xml"/></Relationships>
    """.utf8)

@_cdecl("fuzz_xlsx_reader")
public func fuzzXLSXReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let file: [UInt8]
    if data[0] & 1 == 0 {
        file = bytes
    } else {
        let parts = bytes.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).map(Array.init)
        func part(_ index: Int) -> [UInt8] { index < parts.count ? parts[index] : [] }
        file = StoredZip.archive([
            ("_rels/.rels", packageRelationships),
            ("xl/workbook.xml", parts.count > 3 && !parts[3].isEmpty ? parts[3] : workbookPart),
            ("xl/_rels/workbook.xml.rels", workbookRelationships),
            ("xl/worksheets/sheet1.xml", part(0)),
            ("xl/sharedStrings.xml", part(1)),
            ("xl/styles.xml", part(2)),
        ])
    }
    guard let sheet = try? WorkbookReader.read(file, limits: limits) else { return 0 }
    fuzzCheck(sheet.rows.count <= limits.maxRows, "\(sheet.rows.count) rows")
    var previous = 0
    for row in sheet.rows {
        fuzzCheck(row.number > previous, "row \(row.number) after \(previous)")
        previous = row.number
        fuzzCheck(row.cells.count <= limits.maxColumns, "\(row.cells.count) cells in row \(row.number)")
        fuzzCheck(row.cells.contains { !$0.trimmingSpaces().isEmpty }, "blank row \(row.number)")
    }
    return 0
}
