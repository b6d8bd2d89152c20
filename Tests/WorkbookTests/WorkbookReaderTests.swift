import Foundation
import TestSupport
import Testing
@testable import Workbook

/// The reader on workbooks written by other programs (`Fixtures/make_fixtures.py`).
@Suite struct WorkbookReaderTests {
    private func read(_ name: String, limits: WorkbookLimits = WorkbookLimits()) throws -> WorkbookSheet {
        try WorkbookReader.read(try FixtureWorkbooks.bytes(name), limits: limits)
    }

    private func refusal(_ name: String, limits: WorkbookLimits = WorkbookLimits()) throws -> WorkbookFailure? {
        let bytes = try FixtureWorkbooks.bytes(name)
        do {
            _ = try WorkbookReader.read(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func numbersBooleansAndTextAsACSVWouldHoldThem() throws {
        let sheet = try read("numbers.xlsx")
        #expect(sheet.name == "products")
        #expect(sheet.rows.map(\.number) == [1, 2, 3, 4, 5])
        #expect(sheet.rows[0].cells == ["id", "name", "price", "currency", "discounted_price", "stock", "rate", "active"])
        #expect(sheet.rows[1].cells == ["1", "Tumbler", "12000", "KRW", "1000", "50", "0.5", "TRUE"])
        #expect(sheet.rows[2].cells == ["2", "Mug", "12.5", "USD", "0", "3", "0.00001", "FALSE"])
        #expect(sheet.rows[3].cells == ["3", "Bulk", "12000", "KRW", "0", "1000000", "-2.25"])
        #expect(sheet.rows[4].cells == ["4", "=not a formula", "9007199254740992", "KRW", "0", "0", "0.1"])
    }

    @Test func formulasCountByTheirCachedValues() throws {
        let sheet = try read("formulas.xlsx")
        #expect(sheet.rows.map(\.cells) == [
            ["id", "price", "name", "flag"],
            ["5", "12000", "Tumbler 5", "TRUE"],
            ["1", "0.25", "#DIV/0!", "0"],
            // A formula never calculated has no value: its cell is empty.
            ["2"],
        ])
    }

    @Test func libreOfficeCalculatedFormulasAndDates() throws {
        let sheet = try read("libreoffice-formulas.xlsx")
        #expect(sheet.name == "상품")
        #expect(sheet.rows.map(\.cells) == [
            ["id", "name", "price", "discounted_price", "stock", "created_at"],
            ["3", "무선 이어폰", "39000", "3900", "12", "2026-11-27"],
            ["4", "Tumbler", "12.5", "10", "7", "2026-01-05"],
        ])
    }

    @Test func theDocumentationsSampleReads() throws {
        let sample = FixtureWorkbooks.directory.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/import-sample.xlsx")
        let sheet = try WorkbookReader.read([UInt8](try Data(contentsOf: sample)))
        #expect(sheet.name == "products")
        #expect(sheet.rows.map(\.cells) == [
            ["id", "name", "description", "price", "currency", "discounted_price", "stock", "images"],
            ["", "무선 키보드 K1", "조용한 저소음 키보드입니다.\n블루투스 3대까지 연결됩니다.", "39000", "KRW", "5000", "20",
             "keyboard-front.jpg|keyboard-side.jpg"],
            ["", "Ceramic mug 350 ml", "A handmade ceramic mug, dishwasher safe.", "12.5", "USD", "0", "8",
             "https://example.com/photos/mug.jpg"],
        ])
    }

    @Test func inlineStringsWithRunsPhoneticsAndEscapes() throws {
        let sheet = try read("inline-strings.xlsx")
        #expect(sheet.rows.map(\.cells) == [
            ["id", "name", "description"],
            ["12", "Rich run", "line one\r\nline two  "],
            ["13", "漢字", "_x0041_ stays text"],
        ])
    }

    @Test func sharedStringsOnlyThoseTheSheetUses() throws {
        let sheet = try read("shared-strings.xlsx")
        #expect(sheet.name == "상품")
        #expect(sheet.rows.map(\.cells) == [
            ["id", "name"],
            ["1", "무선 이어폰"],
            ["2", "東京"],
            ["3", "tab\tinside", ""],
        ])
    }

    @Test func koreanSheetChosenByNameWithDatesAsText() throws {
        let sheet = try read("korean.xlsx")
        #expect(sheet.name == "상품")
        #expect(sheet.rows.map(\.cells) == [
            ["id", "name", "price", "created_at"],
            ["", "제주 녹차 텀블러", "15000", "2026-11-27"],
            ["", "무선 이어폰", "39000", "2026-11-27 09:30:00"],
        ])
    }

    @Test func dateStylesAreToldFromColouredNumbers() throws {
        let sheet = try read("dates.xlsx")
        #expect(sheet.rows.map(\.cells) == [
            ["price", "created_at", "issued_at"],
            ["12000", "2026-11-27", "2026-11-27 18:00:00"],
        ])
    }

    @Test func cellReferencesPlaceTheCells() throws {
        let sheet = try read("cell-references.xlsx")
        #expect(sheet.rows.map(\.number) == [1, 2, 3, 7])
        #expect(sheet.rows.map(\.cells) == [
            ["id", "", "price"],
            ["2", "20"],
            ["3", "", "", "", "33"],
            ["", "7"],
        ])
    }

    @Test func theSheetNamedProductsWinsOverTheFirst() throws {
        let named = try read("sheet-named-products.xlsx")
        #expect(named.name == "Products")
        #expect(named.rows.map(\.cells) == [["id", "name"], ["7", "chosen by name"]])
        let first = try read("sheet-first.xlsx")
        #expect(first.name == "Sheet A")
        #expect(first.rows.map(\.cells) == [["id", "name"], ["1", "first sheet"]])
    }

    @Test func rowAndColumnLimitsHoldAtTheirEdges() throws {
        let limits = WorkbookLimits(maxRows: 1_001, maxColumns: 100)
        #expect(try read("rows-1000.xlsx", limits: limits).rows.count == 1_001)
        #expect(try refusal("rows-1001.xlsx", limits: limits) == .tooManyRows(max: 1_001))
        #expect(try read("columns-100.xlsx", limits: limits).rows[1].cells.count == 100)
        #expect(try refusal("columns-101.xlsx", limits: limits) == .tooManyColumns(row: 1, max: 100))
    }

    @Test func entitiesAndDocumentTypesAreRefused() throws {
        #expect(try refusal("billion-laughs.xlsx") == .documentType)
        #expect(try refusal("xxe.xlsx") == .documentType)
        #expect(try refusal("xxe-parameter.xlsx") == .documentType)
        #expect(try refusal("undeclared-entity.xlsx") == .damaged(part: "xl/worksheets/sheet1.xml"))
    }

    @Test func zipBombsAreRefusedBeforeOrWhileInflating() throws {
        #expect(try refusal("zip-bomb.xlsx") == .tooLarge(maxBytes: 50 << 20))
        // Sizes that understate the content: inflating stops at the claim and the checksum fails.
        #expect(try refusal("zip-bomb-understated.xlsx") == .damaged(part: "xl/worksheets/sheet1.xml"))
        // The budget is the sum of every entry's declared size, whatever is then read.
        var small = WorkbookLimits()
        small.maxUncompressedBytes = 4_000
        #expect(try refusal("rows-1000.xlsx", limits: small) == .tooLarge(maxBytes: 4_000))
    }

    @Test func tooManyEntriesDeclaredOrPresent() throws {
        #expect(try refusal("entries-declared.xlsx") == .tooManyEntries(max: 10_000))
        let entries = (0...10_000).map { (name: "e/\($0)", bytes: [UInt8]()) }
        #expect(throws: WorkbookFailure.tooManyEntries(max: 10_000)) { try WorkbookReader.read(StoredZip.archive(entries)) }
        // Ten thousand are allowed; this archive is then simply not a workbook.
        #expect(throws: WorkbookFailure.notAWorkbook) { try WorkbookReader.read(StoredZip.archive(Array(entries.dropLast()))) }
    }

    @Test func encryptedWorkbooksAndZips() throws {
        #expect(try refusal("encrypted.xlsx") == .encrypted)
        #expect(try refusal("zip-encrypted-entries.xlsx") == .encrypted)
    }

    @Test func filesThatAreNoWorkbook() throws {
        #expect(try refusal("not-a-workbook.xlsx") == .notAWorkbook)
        #expect(try refusal("word-document.xlsx") == .notAWorkbook)
        #expect(try refusal("corrupt.xlsx") == .notAWorkbook)
        #expect(throws: WorkbookFailure.notAWorkbook) { try WorkbookReader.read(Array("id,name\n1,a\n".utf8)) }
        #expect(throws: WorkbookFailure.notAWorkbook) { try WorkbookReader.read([UInt8]()) }
        let whole = try FixtureWorkbooks.bytes("numbers.xlsx")
        #expect(throws: WorkbookFailure.notAWorkbook) { try WorkbookReader.read(whole.prefix(whole.count / 2)) }
    }

    @Test func workbooksWithoutAWorksheet() throws {
        #expect(try refusal("no-sheet.xlsx") == .noSheet)
        #expect(try refusal("chart-sheet-only.xlsx") == .noSheet)
        #expect(try refusal("shared-string-missing.xlsx") == .damaged(part: "xl/worksheets/sheet1.xml"))
    }

    @Test func cellTextIsBounded() throws {
        var limits = WorkbookLimits()
        limits.maxCellTextBytes = 47
        #expect(try refusal("numbers.xlsx", limits: limits) == .tooMuchText(maxBytes: 47))
        // Three numbers, id, name, 무선 이어폰, 東京, and tab_x0009_inside as read (before its escape
        // is undone): 47 bytes.
        #expect(try refusal("shared-strings.xlsx", limits: limits) == nil)
        limits.maxCellTextBytes = 46
        #expect(try refusal("shared-strings.xlsx", limits: limits) == .tooMuchText(maxBytes: 46))
        limits.maxCellTextBytes = 10
        #expect(try refusal("shared-strings.xlsx", limits: limits) == .tooMuchText(maxBytes: 10))
    }

    @Test func everyByteCutOfAWorkbookIsRefusedCleanly() throws {
        // A damaged download: no cut may crash or hang the reader.
        let whole = try FixtureWorkbooks.bytes("shared-strings.xlsx")
        for cut in stride(from: 0, to: whole.count, by: 7) {
            _ = try? WorkbookReader.read(whole.prefix(cut))
            var flipped = whole
            flipped[cut] ^= 0x5A
            _ = try? WorkbookReader.read(flipped)
        }
    }
}
