import Foundation
import TestSupport
import Testing
@testable import AdminPanel
@testable import Workbook

/// Importing `.xlsx` workbooks through the same form as a CSV: the round trip from the panel's
/// own export, and every refusal with its reason (422, nothing sent).
@Suite(.awaitsTeardown) struct WorkbookImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Import
        .deletingLastPathComponent()   // AdminPanelTests
        .deletingLastPathComponent()   // Tests
        .appendingPathComponent("WorkbookTests/Fixtures/Workbooks")

    static func preview(_ harness: PanelHarness, _ bytes: Data, filename: String = "products.xlsx") async throws -> RawResponse {
        let token = try await harness.csrfToken(from: "/products/import")
        return try await harness.browser.postMultipart("/products/import", fields: [("csrf_token", token)],
            files: [.init(name: "file", filename: filename, type: "application/octet-stream", data: bytes)])
    }

    /// The workbook with cells replaced as a spreadsheet program saves an edit: the whole `<c>`
    /// element of that reference written anew, the archive written again (stored, by another writer).
    static func edited(_ workbook: Data, _ cells: [String: String]) throws -> Data {
        var parts = try CatalogWorkbookTests.parts(workbook)
        var sheet = try #require(parts["xl/worksheets/sheet1.xml"])
        for (reference, element) in cells {
            let start = try #require(sheet.range(of: "<c r=\"\(reference)\""))
            let end = try #require(sheet.range(of: "</c>", range: start.upperBound..<sheet.endIndex))
            sheet.replaceSubrange(start.lowerBound..<end.upperBound, with: element)
        }
        parts["xl/worksheets/sheet1.xml"] = sheet
        return Data(StoredZip.archive(parts.sorted { $0.key < $1.key }.map { (name: $0.key, bytes: Array($0.value.utf8)) }))
    }

    /// The sheet row that holds a product.
    static func row(of id: Int, in workbook: Data) throws -> Int {
        let sheet = try WorkbookReader.read(workbook)
        return try #require(sheet.rows.first { $0.cells.first == String(id) }?.number)
    }

    @Test func exportEditImportPreviewsExactlyTheEdits() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let repriced = try await harness.makeProduct(name: "Green tea", stock: 3)
        let renamed = try await harness.makeProduct(name: "Tea cup", stock: 2)
        let untouched = try await harness.makeProduct(name: "=SUM(1,2)", stock: 1)
        let export = try await harness.browser.get("/products/export.xlsx")
        #expect(export.status == 200)

        // As exported: every row unchanged, so there is nothing to apply.
        let same = try await Self.preview(harness, export.body)
        #expect(same.status == 200)
        #expect(same.count(of: "data-outcome=\"unchanged\"") == 3)
        #expect(!same.text.contains("data-import-apply"))

        let (a, b, c) = (try Self.row(of: repriced.id, in: export.body), try Self.row(of: renamed.id, in: export.body),
                         try Self.row(of: untouched.id, in: export.body))
        let workbook = try Self.edited(export.body, [
            "E\(a)": "<c r=\"E\(a)\"><v>15000</v></c>",
            "H\(a)": "<c r=\"H\(a)\"><v>9</v></c>",
            "B\(b)": "<c r=\"B\(b)\" t=\"inlineStr\"><is><t>찻잔 세트</t></is></c>",
            // Read-only columns a seller may touch: ignored.
            "C\(c)": "<c r=\"C\(c)\" t=\"inlineStr\"><is><t>someone else</t></is></c>",
            "I\(c)": "<c r=\"I\(c)\"><v>1</v></c>",
        ])
        let preview = try await Self.preview(harness, workbook, filename: "내 상품.xlsx")
        #expect(preview.status == 200)
        #expect(preview.text.contains("data-import-row=\"\(a)\" data-outcome=\"update\""))
        #expect(preview.text.contains("data-import-row=\"\(b)\" data-outcome=\"update\""))
        #expect(preview.text.contains("data-import-row=\"\(c)\" data-outcome=\"unchanged\""))
        #expect(preview.count(of: "data-outcome=\"update\"") == 2)
        #expect(preview.text.contains("₩15,000") && preview.text.contains("찻잔 세트"))
        // The preview sent nothing; applying sends exactly the edits.
        #expect(try await harness.api.product(id: repriced.id).price == 12000)
        let result = try await ImportRouteTests.apply(harness, preview)
        #expect(result.count(of: "data-outcome=\"done\"") == 2)
        let after = try await harness.api.product(id: repriced.id)
        #expect(after.price == 15000 && after.stock == 9 && after.name == "Green tea")
        #expect(try await harness.api.product(id: renamed.id).name == "찻잔 세트")
        #expect(try await harness.api.product(id: untouched.id).name == "=SUM(1,2)")
    }

    @Test func aLibreOfficeWorkbookIsPreviewedByItsSheetRows() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        // Saved by LibreOffice Calc (sheet 상품, shared strings, calculated formulas); its ids are
        // unknown here, so each row is an error naming its sheet row.
        let bytes = try Data(contentsOf: Self.fixtures.appendingPathComponent("libreoffice-formulas.xlsx"))
        let preview = try await Self.preview(harness, bytes)
        #expect(preview.status == 422)
        #expect(preview.text.contains("data-import-row=\"2\" data-outcome=\"error\""))
        #expect(preview.text.contains("data-import-row=\"3\" data-outcome=\"error\""))
        #expect(preview.text.contains("There is no product 3 in the store."))
    }

    @Test func everyRefusalNamesItsReasonAndSendsNothing() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let expectations: [(String, String)] = [
            ("zip-bomb.xlsx", "unpacks to more than 50 MB"),
            ("entries-declared.xlsx", "more than 10,000 files inside"),
            ("billion-laughs.xlsx", "document type declaration (DTD)"),
            ("xxe.xlsx", "document type declaration (DTD)"),
            ("encrypted.xlsx", "password-protected workbook or an old Excel 97–2003"),
            ("zip-encrypted-entries.xlsx", "password-protected workbook"),
            ("not-a-workbook.xlsx", "is a zip file but not an Excel workbook"),
            ("no-sheet.xlsx", "has no worksheet"),
            ("rows-1001.xlsx", "more than 1,000 products"),
            ("columns-101.xlsx", "Line 1 has more than 100 columns"),
            ("undeclared-entity.xlsx", "is damaged: its part xl/worksheets/sheet1.xml"),
        ]
        for (name, reason) in expectations {
            let bytes = try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
            let answer = try await Self.preview(harness, bytes, filename: "renamed.csv")
            #expect(answer.status == 422, "\(name): \(answer.status)")
            #expect(answer.text.contains("role=\"alert\""), "\(name)")
            #expect(answer.text.contains(reason), "\(name): \(answer.text.prefix(3000))")
        }
        #expect(try await ImportRouteTests.productCount(harness) == 0)
        // The panel is still up and answering.
        #expect(try await harness.browser.get("/products").status == 200)
    }

    @Test func aThousandRowWorkbookPreviews() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let bytes = try Data(contentsOf: Self.fixtures.appendingPathComponent("rows-1000.xlsx"))
        let answer = try await Self.preview(harness, bytes)
        // Rows without photos are errors, each named on its own row: all 1,000 are read.
        #expect(answer.status == 422)
        #expect(answer.count(of: "data-import-row=") == 1_000)
        #expect(answer.text.contains("data-import-row=\"1001\""))
    }
}
