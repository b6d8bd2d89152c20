import Foundation
import TestSupport
import Testing
@testable import AdminPanel
@testable import Workbook

/// `GET /products/export.xlsx`: the view's products as a workbook with typed cells.
@Suite(.awaitsTeardown) struct CatalogWorkbookTests {
    static func start() async throws -> PanelHarness {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        return harness
    }

    /// The parts of a workbook the panel sent, by name.
    static func parts(_ bytes: Data) throws -> [String: String] {
        let archive = try ZipArchive(bytes, limits: WorkbookLimits())
        var parts: [String: String] = [:]
        for name in archive.names {
            var data: [UInt8] = []
            try archive.read(name) { data.append(contentsOf: $0) }
            parts[name] = String(decoding: data, as: UTF8.self)
        }
        return parts
    }

    @Test func theExportHasTheCSVColumnsAndTypedCells() async throws {
        let harness = try await Self.start()
        let formula = try await harness.makeProduct(name: "=SUM(1,2)", stock: 1_234)
        let korean = try await harness.makeProduct(name: "제주 녹차 텀블러", stock: 0)
        let answer = try await harness.browser.get("/products/export.xlsx")
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        #expect(answer.header("Content-Disposition") == "attachment; filename=\"products.xlsx\"")

        let sheet = try WorkbookReader.read(answer.body)
        #expect(sheet.name == "products")
        #expect(sheet.rows.first?.cells == CatalogCSV.header.split(separator: ",").map(String.init))
        let rows = Dictionary(uniqueKeysWithValues: sheet.rows.dropFirst().map { ($0.cells[0], $0.cells) })
        let first = try #require(rows[String(formula.id)])
        #expect(first[1] == "=SUM(1,2)")
        #expect(first[3] == "KRW" && first[4] == "12000" && first[5] == "0" && first[7] == "1234")
        #expect(first[8].count == 10 && first[8].hasPrefix("20"))   // a date cell, read back as ISO text
        #expect(rows[String(korean.id)]?[1] == "제주 녹차 텀블러")

        // Text cells, never a formula; numbers as numbers; a bold, frozen header.
        let parts = try Self.parts(answer.body)
        let xml = try #require(parts["xl/worksheets/sheet1.xml"])
        #expect(!xml.contains("<f>"))
        #expect(xml.contains("=SUM(1,2)</t>"))
        #expect(xml.contains("<v>\(formula.id)</v>"))
        #expect(xml.contains("<pane ySplit=\"1\" topLeftCell=\"A2\" activePane=\"bottomLeft\" state=\"frozen\"/>"))
        #expect(xml.contains("<cols>"))
        #expect(try #require(parts["xl/styles.xml"]).contains("<b/>"))
    }

    @Test func theExportTakesTheListsQuery() async throws {
        let harness = try await Self.start()
        try await harness.makeProduct(name: "Green tea", stock: 0)
        try await harness.makeProduct(name: "Black tea", stock: 5)
        let soldOut = try WorkbookReader.read(try await harness.browser.get("/products/export.xlsx?stock=sold-out").body)
        #expect(soldOut.rows.dropFirst().map { $0.cells[1] } == ["Green tea"])
        let list = try await harness.browser.get("/products?stock=sold-out")
        #expect(list.text.contains("href=\"/products/export.xlsx?view=list&amp;stock=sold-out\" data-export-xlsx"))
    }

    @Test func cellsOfHostileTextStayCells() {
        // Control characters XML cannot carry are dropped; a literal escape stays literal text.
        #expect(WorkbookWriter.cellText("a\u{0}b\u{1B}c\td") == "abc\td")
        #expect(WorkbookWriter.cellText("x_x0041_y") == "x_x005F_x0041_y")
        #expect(WorkbookWriter.cellText(String(repeating: "가", count: 20_000)).utf8.count <= 32_767)
    }
}
