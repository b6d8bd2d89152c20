import Foundation
import OpenMarketCore
import TestSupport
import Testing
@testable import AdminPanel
@testable import Workbook

/// `GET /products/export-edit.csv` and `.xlsx`: the view's products with their descriptions,
/// under the names the import reads in the page's language, read-only columns last and marked,
/// and a file imported as downloaded previews every row as unchanged.
@Suite(.awaitsTeardown) struct EditExportTests {
    static let koreanHeader = "상품번호,상품명,상세설명,판매가,통화,즉시할인 금액,재고수량,판매자 (수정 불가),할인가 (수정 불가),"
        + "등록일 (수정 불가),수정일 (수정 불가),대표 이미지 주소 (수정 불가)"
    static let englishHeader = "id,name,description,price,currency,discounted_price,stock,vendor (read-only),"
        + "bargain_price (read-only),created_at (read-only),issued_at (read-only),thumbnail_url (read-only)"

    static func start() async throws -> PanelHarness {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        return harness
    }

    @discardableResult
    static func make(_ harness: PanelHarness, _ name: String, description: String, price: Double = 12000,
                     currency: Currency = .KRW, discount: Double = 0, stock: Int = 3) async throws -> ProductDetail {
        try await harness.api.create(NewProduct(name: name, description: description, price: price, currency: currency,
                                                discountedPrice: discount, stock: stock,
                                                images: [ImageUpload(filename: "a.png", data: TestImages.png())]))
    }

    /// Three products whose cells test the file: a formula-looking name and description with a
    /// comma, quotes and line breaks, a Korean one, and dollars with cents.
    static func makeTrickyProducts(_ harness: PanelHarness) async throws -> [ProductDetail] {
        [
            try await make(harness, "=SUM(1,2)", description: "-5% off, \"quoted\",\r\nsecond line\nthird line", discount: 1000, stock: 1234),
            try await make(harness, "제주 녹차 텀블러", description: "제주 녹차 잎으로 만든 텀블러입니다.", price: 15000, stock: 0),
            try await make(harness, "Ceramic mug", description: "@home: a mug for tea.", price: 12.5, currency: .USD, stock: 8),
        ]
    }

    /// A CSV's lines split as records (quoted line breaks kept inside their record).
    static func records(_ body: Data) throws -> [[String]] {
        let text = String(decoding: body.dropFirst(3), as: UTF8.self)
        return try CSVReader(maxColumns: 100, maxRecords: 2_000).read(text).map(\.cells)
    }

    @Test func theCSVHasTheImportsNamesInThePagesLanguageAndEveryDescription() async throws {
        let harness = try await Self.start()
        let products = try await Self.makeTrickyProducts(harness)
        let korean = try await harness.browser.get("/products/export-edit.csv?lang=ko&sort=oldest")
        #expect(korean.status == 200)
        #expect(korean.header("Content-Type") == "text/csv; charset=utf-8")
        #expect(korean.header("Content-Disposition") == "attachment; filename=\"products-for-editing.csv\"")
        #expect(korean.body.starts(with: [0xEF, 0xBB, 0xBF]))
        let text = String(decoding: korean.body.dropFirst(3), as: UTF8.self)
        #expect(text.hasPrefix(Self.koreanHeader + "\r\n"))

        let rows = try Self.records(korean.body)
        #expect(rows.count == 4)
        let formula = rows[1]
        #expect(formula[0] == String(products[0].id))
        // Formula-looking cells behind a `'`; the description with its quotes and line breaks.
        #expect(formula[1] == "'=SUM(1,2)")
        #expect(formula[2] == "'-5% off, \"quoted\",\r\nsecond line\nthird line")
        #expect(Array(formula[3...6]) == ["12000", "KRW", "1000", "1234"])
        #expect(formula[8] == "11000" && formula[9].count == 10 && formula[11].hasPrefix("http"))
        #expect(rows[2][1] == "제주 녹차 텀블러" && rows[2][2] == "제주 녹차 잎으로 만든 텀블러입니다.")
        #expect(rows[3][2] == "'@home: a mug for tea." && rows[3][3] == "12.50" && rows[3][4] == "USD")

        let english = try await harness.browser.get("/products/export-edit.csv?lang=en&sort=oldest")
        #expect(String(decoding: english.body.dropFirst(3), as: UTF8.self).hasPrefix(Self.englishHeader + "\r\n"))
        #expect(try Self.records(english.body).dropFirst() == rows.dropFirst())
    }

    @Test func theCSVImportedAsDownloadedIsUnchangedAndAnEditIsExactlyThatEdit() async throws {
        let harness = try await Self.start()
        let products = try await Self.makeTrickyProducts(harness)
        for language in ["ko", "en"] {
            let export = try await harness.browser.get("/products/export-edit.csv?lang=\(language)&sort=oldest")
            let same = try await ImportRouteTests.preview(harness, csv: export.body)
            #expect(same.status == 200, "\(language): \(same.text.prefix(2000))")
            #expect(same.count(of: "data-outcome=\"unchanged\"") == 3, "\(language)")
            #expect(!same.text.contains("data-import-apply"))
        }

        // An edit of a description and a price, and a read-only cell overwritten: exactly the edits.
        let export = try await harness.browser.get("/products/export-edit.csv?lang=ko&sort=oldest")
        var rows = try Self.records(export.body)
        rows[2][2] = "제주 녹차 잎으로 만든 보온 텀블러입니다."
        rows[2][3] = "16,000"
        rows[3][7] = "someone else"
        rows[3][8] = "1"
        let text = "\u{FEFF}" + rows.map { $0.map(CatalogCSV.cell).joined(separator: ",") + "\r\n" }.joined()
        let preview = try await ImportRouteTests.preview(harness, csv: Data(text.utf8))
        #expect(preview.status == 200)
        #expect(preview.count(of: "data-outcome=\"update\"") == 1)
        #expect(preview.count(of: "data-outcome=\"unchanged\"") == 2)
        #expect(preview.text.contains("보온 텀블러") && preview.text.contains("₩16,000"))
        let result = try await ImportRouteTests.apply(harness, preview)
        #expect(result.count(of: "data-outcome=\"done\"") == 1)
        let after = try await harness.api.product(id: products[1].id)
        #expect(after.description == "제주 녹차 잎으로 만든 보온 텀블러입니다." && after.price == 16000)
    }

    @Test func theWorkbookHasGreyReadOnlyHeadersLastAndRoundTripsUnchanged() async throws {
        let harness = try await Self.start()
        let products = try await Self.makeTrickyProducts(harness)
        let answer = try await harness.browser.get("/products/export-edit.xlsx?lang=ko&sort=oldest")
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == CatalogWorkbook.contentType)
        #expect(answer.header("Content-Disposition") == "attachment; filename=\"products-for-editing.xlsx\"")
        let sheet = try WorkbookReader.read(answer.body)
        #expect(sheet.name == "products")
        #expect(sheet.rows.first?.cells.joined(separator: ",") == Self.koreanHeader)
        let formula = try #require(sheet.rows.first { $0.cells.first == String(products[0].id) }?.cells)
        // Text cells hold the text as it is (no `'`): a workbook never runs a text cell.
        #expect(formula[1] == "=SUM(1,2)" && formula[2].hasPrefix("-5% off, \"quoted\","))
        #expect(Array(formula[3...6]) == ["12000", "KRW", "1000", "1234"])

        let parts = try CatalogWorkbookTests.parts(answer.body)
        let xml = try #require(parts["xl/worksheets/sheet1.xml"])
        #expect(!xml.contains("<f>"))
        #expect(try #require(parts["xl/styles.xml"]).contains("<fgColor rgb=\"FFD9D9D9\"/>"))
        // The grey header style is on the five read-only headers (H1…L1) and on none before.
        let greyStyle = try #require(Self.headerStyle("H1", in: xml))
        #expect(["I1", "J1", "K1", "L1"].allSatisfy { Self.headerStyle($0, in: xml) == greyStyle })
        #expect(["A1", "B1", "C1", "G1"].allSatisfy { Self.headerStyle($0, in: xml) != greyStyle })

        let same = try await WorkbookImportTests.preview(harness, answer.body)
        #expect(same.status == 200, "\(same.text.prefix(2000))")
        #expect(same.count(of: "data-outcome=\"unchanged\"") == 3)

        let english = try WorkbookReader.read(try await harness.browser.get("/products/export-edit.xlsx?lang=en").body)
        #expect(english.rows.first?.cells.joined(separator: ",") == Self.englishHeader)
    }

    /// The `s` (style) of a cell in a sheet's XML.
    static func headerStyle(_ reference: String, in xml: String) -> String? {
        guard let start = xml.range(of: "<c r=\"\(reference)\"") else { return nil }
        let element = xml[start.upperBound...].prefix { $0 != ">" }
        guard let style = element.range(of: "s=\"") else { return "" }
        return String(element[style.upperBound...].prefix { $0 != "\"" })
    }

    @Test func theExportTakesTheListsQueryAndTheListAndImportFormLinkIt() async throws {
        let harness = try await Self.start()
        try await Self.make(harness, "Green tea", description: "Green tea leaves from Jeju.", stock: 0)
        try await Self.make(harness, "Black tea", description: "Black tea leaves from Hadong.", stock: 5)
        let soldOut = try Self.records(try await harness.browser.get("/products/export-edit.csv?stock=sold-out").body)
        #expect(soldOut.dropFirst().map { $0[1] } == ["Green tea"])
        let sheet = try WorkbookReader.read(try await harness.browser.get("/products/export-edit.xlsx?q=black").body)
        #expect(sheet.rows.dropFirst().map { $0.cells[2] } == ["Black tea leaves from Hadong."])

        let list = try await harness.browser.get("/products?stock=sold-out&lang=ko")
        #expect(list.text.contains("href=\"/products/export-edit.xlsx?view=list&amp;stock=sold-out\" data-export-edit-xlsx download>수정용 엑셀 받기</a>"))
        let form = try await harness.browser.get("/products/import?lang=en")
        #expect(form.text.contains("href=\"/products/export-edit.xlsx\" download data-export-edit-xlsx>Download Excel for editing</a>"))
        #expect(form.text.contains("href=\"/products/export-edit.csv\" download data-export-edit>Download CSV for editing</a>"))
        // The contract's exports keep their columns.
        let csv = try await harness.browser.get("/products/export.csv")
        #expect(String(decoding: csv.body.dropFirst(3), as: UTF8.self).hasPrefix(CatalogCSV.header + "\r\n"))
    }

    @Test func viewersGetNeitherTheLinkNorTheFile() async throws {
        var options = PanelHarness.Options()
        options.signIn = true
        let harness = try await PanelHarness.start(options)
        Teardown.add { await harness.stop() }
        try await harness.makeProduct(name: "Green tea")
        try await harness.setUpOwner()
        let link = try await harness.invite("viewer1", role: "viewer")
        let viewer = harness.newBrowser()
        try await harness.accept(link, password: "viewer-password-1", in: viewer)
        let list = try await viewer.get("/products")
        #expect(list.status == 200 && list.text.contains("data-export-xlsx") && !list.text.contains("data-export-edit"))
        #expect(try await viewer.get("/products/export-edit.csv").status == 403)
        #expect(try await viewer.get("/products/export-edit.xlsx").status == 403)
        // The owner gets both, on every page of the list.
        let owner = try await harness.browser.get("/products?page=2")
        #expect(owner.text.contains("data-export-edit-xlsx"))
        #expect(try await harness.browser.get("/products/export-edit.csv").status == 200)
    }

    @Test func theListFindsAProductByItsNumber() async throws {
        let harness = try await Self.start()
        let wanted = try await Self.make(harness, "Green tea", description: "Green tea leaves from Jeju.")
        try await Self.make(harness, "Black tea", description: "Black tea leaves from Hadong.")
        for search in [String(wanted.id), "#\(wanted.id)", " #\(wanted.id) "] {
            let page = try await harness.browser.get("/products?q=" + TestBrowser.formEncode(search))
            #expect(CatalogRouteTests.ids(page) == [wanted.id], "search \(search.debugDescription)")
        }
        #expect(CatalogRouteTests.ids(try await harness.browser.get("/products?q=%23999999")).isEmpty)
    }

    @Test func importSkipsColumnsMarkedReadOnlyWhateverTheirName() throws {
        let columns = try ImportColumns(header: ["상품번호", "판매가 (수정 불가)", "재고수량", "Vendor (READ-ONLY)", "name(read-only)"])
        #expect(columns.has(.id) && columns.has(.stock))
        #expect(!columns.has(.price) && !columns.has(.name))
        #expect(EditExportColumns.isMarkedReadOnly("대표 이미지 주소 (수정 불가)"))
        #expect(EditExportColumns.isMarkedReadOnly("thumbnail_url  ( read-only )"))
        #expect(!EditExportColumns.isMarkedReadOnly("판매가"))
        // Each marked header names no field even without its mark, so a mark typed away does no harm.
        for column in EditExportColumns.all where column.readOnly {
            #expect(ImportColumns.field(named: column.name) == nil && ImportColumns.field(named: column.korean) == nil)
        }
        #expect(try ImportColumns(header: EditExportColumns.header(.ko)).positions.count == 7)
        #expect(try ImportColumns(header: EditExportColumns.header(.en)).positions.count == 7)
    }

    @Test func aDescriptionDiffersOnlyByMoreThanEdgesAndLineBreaks() {
        #expect(ImportPlanner.sameDescription("a\nb", "a\r\nb "))
        #expect(ImportPlanner.sameDescription("a\nb", "a\rb"))
        #expect(!ImportPlanner.sameDescription("a\n\nb", "a\nb"))
        #expect(!ImportPlanner.sameDescription("a b", "a  b"))
        #expect(!ImportPlanner.sameDescription("a", nil))
    }
}
