import Foundation
import TestSupport
import Testing
@testable import AdminPanel

/// The import in sellers' own terms: Korean column names, a header error counted, rows numbered
/// as Excel numbers them, photo names matched regardless of case, and a template to start from.
@Suite(.awaitsTeardown) struct ImportAliasRouteTests {
    @Test func koreanColumnNamesAreTheContractsColumns() async throws {
        let harness = try await ImportRouteTests.start()
        let existing = try await harness.makeProduct(name: "Green tea", stock: 3)
        let csv = "상품번호,상품명,상세설명,판매가,통화,즉시할인 금액,재고수량,이미지\n"
            + "\(existing.id),,,\"13,500\",KRW,,9,\n"
            + ",원목 도마,원목으로 만든 튼튼한 도마입니다.,\"25,000\",KRW,\"1,000\",4,도마_정면.JPG\n"
        let preview = try await ImportRouteTests.preview(harness, csv: Data(csv.utf8),
            photos: [.init(filename: "도마_정면.jpg", type: "image/png", data: TestImages.png(seed: 4))])
        #expect(preview.status == 200)
        #expect(preview.text.contains("data-import-row=\"2\" data-outcome=\"update\""))
        #expect(preview.text.contains("data-import-row=\"3\" data-outcome=\"create\""))
        let result = try await ImportRouteTests.apply(harness, preview)
        #expect(result.text.contains("data-import-result=\"3\" data-outcome=\"done\""))
        let updated = try await harness.api.product(id: existing.id)
        #expect(updated.price == 13_500 && updated.stock == 9)
    }

    @Test func aliasesAndTheirSpellings() throws {
        let columns = try ImportColumns(header: ["상품설명", " 가격 ", "할인금액", "재고", "대표이미지"])
        #expect(columns.has(.description) && columns.has(.price) && columns.has(.discountedPrice) && columns.has(.stock) && columns.has(.images))
        #expect(throws: ImportColumns.Failure.duplicate("판매가")) { try ImportColumns(header: ["price", "판매가"]) }
        #expect(ImportColumns.field(named: "즉시할인 금액") == .discountedPrice)
        #expect(ImportColumns.field(named: "상품 정보") == nil)
    }

    @Test func anErrorNamesItsColumnAsTheReadersSheetsHeadIt() {
        let issue = ImportIssue(line: 4, column: "discounted_price", key: "import_rule_no_such_rule", message: "Too big.")
        #expect(ImportController.importIssueText(issue, LanguageTests.ko) == "4행 즉시할인 금액 열: Too big.")
        #expect(ImportController.importIssueText(issue, LanguageTests.en) == "Line 4, column discounted_price: Too big.")
        // A header the seller wrote that names no field (a duplicated column) is named as written.
        let written = ImportIssue(line: 1, column: "판매가", key: "import_rule_duplicate_column", message: "")
        #expect(ImportController.importIssueText(written, LanguageTests.ko).hasPrefix("1행 판매가 열: "))
    }

    @Test func aHeaderErrorIsCountedAndNoEmptyTableIsDrawn() async throws {
        let harness = try await ImportRouteTests.start()
        let preview = try await ImportRouteTests.preview(harness, csv: Data("품목,값\n컵,1000\n".utf8))
        #expect(preview.status == 422)
        #expect(preview.text.contains("0 with errors") == false)
        #expect(preview.text.contains("1 with errors"))
        #expect(!preview.text.contains("<table class=\"bulk-results"))
        #expect(preview.text.contains("data-import-problems"))
    }

    @Test func rowsAreNumberedAsExcelNumbersThemAfterAMultiLineCell() async throws {
        let harness = try await ImportRouteTests.start()
        let csv = "sep=,\r\nname,description,price,stock,images\r\n"
            + "원목 도마,\"첫째 줄\r\n둘째 줄\r\n셋째 줄까지 있는 설명입니다.\",25000,4,https://example.com/a.jpg\r\n"
            + "꿀 선물세트,짧다,30000,2,https://example.com/b.jpg\r\n"
            + "\r\n"
            + "도라지청,도라지청 스틱 30포 선물용입니다.,19000,8,https://example.com/c.jpg\r\n"
        let preview = try await ImportRouteTests.preview(harness, csv: Data(csv.utf8))
        // Header row 1; the blank line is Excel's row 4; the `sep=` line is no row.
        #expect(preview.text.contains("data-import-row=\"2\" data-outcome=\"create\""))
        #expect(preview.text.contains("data-import-row=\"3\" data-outcome=\"error\""))
        #expect(preview.text.contains("data-import-row=\"5\" data-outcome=\"create\""))
        #expect(preview.text.contains("Line 3, column"))
    }

    @Test func theFormLinksATemplateInThePagesLanguage() async throws {
        let harness = try await ImportRouteTests.start()
        let english = try await harness.browser.get("/products/import")
        #expect(english.text.contains("href=\"/static/import-template-en.csv\" download"))
        let korean = try await harness.browser.get("/products/import?lang=ko")
        #expect(korean.text.contains("href=\"/static/import-template-ko.csv\" download"))
        let template = try await harness.browser.get("/static/import-template-ko.csv")
        #expect(template.status == 200 && template.header("Content-Type") == "text/csv; charset=utf-8")
        #expect(template.text.contains("상품번호,상품명,상세설명,판매가,통화,즉시할인 금액,재고수량,이미지"))
    }
}
