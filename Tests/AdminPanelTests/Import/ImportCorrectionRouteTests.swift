import Foundation
import TestSupport
import Testing
@testable import AdminPanel

/// Fixing an import's error rows: the list of error rows, their download (as sent, with a
/// reason column the importer ignores), applying only the rows without errors, and a corrected
/// file re-uploaded onto the preview keeping its photos.
@Suite(.awaitsTeardown) struct ImportCorrectionRouteTests {
    /// A link's `href` by its data hook on a page.
    static func href(_ hook: String, in page: RawResponse) throws -> String {
        let text = page.text
        let mark = try #require(text.range(of: hook))
        let before = text[..<mark.lowerBound]
        let start = try #require(before.range(of: "href=\"", options: .backwards))
        return String(text[start.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
    }

    static func correct(_ harness: PanelHarness, preview: RawResponse, csv: Data,
                        photos: [TestBrowser.FilePart] = []) async throws -> RawResponse {
        let download = try href("data-import-error-download", in: preview)
        let action = download.replacingOccurrences(of: "/errors.csv", with: "/file")
        let token = try await harness.csrfToken(from: "/products/import")
        return try await harness.browser.postMultipart(action, fields: [("csrf_token", token)],
            files: [.init(name: "file", filename: "products.csv", type: "text/csv", data: csv)] + photos)
    }

    static let sellersFile = "상품명,상세설명,판매가,재고수량,이미지,메모\r\n"
        + "원목 도마,원목으로 만든 튼튼한 도마입니다.,\"25,000\",4,https://example.com/a.jpg,첫 상품\r\n"
        + "\"=HYPERLINK(\"\"x\"\")\",짧다,\"12,000\",3,https://example.com/b.jpg,\"줄바꿈\r\n있는 메모\"\r\n"
        + "꿀 선물세트,꿀 선물세트 세 병입니다.,abc,2,https://example.com/c.jpg,\r\n"

    @Test func errorRowsAreListedAtTheTopAndComeBackAsSentWithTheirReasons() async throws {
        let harness = try await ImportRouteTests.start()
        _ = try await harness.browser.get("/products/import?lang=ko")
        let preview = try await ImportRouteTests.preview(harness, csv: Data(Self.sellersFile.utf8))
        #expect(preview.status == 422)
        // Each error row linked from the top, by the row Excel shows (the memo's line break is one row).
        #expect(preview.text.contains("href=\"#import-row-3\" data-import-error-link=\"3\">3행 =HYPERLINK(&quot;x&quot;)</a>: 상세설명: 상세설명은"))
        #expect(preview.text.contains("href=\"#import-row-4\" data-import-error-link=\"4\">4행 꿀 선물세트</a>: 판매가: 판매가를 숫자로"))
        #expect(preview.text.contains("<tr id=\"import-row-3\" data-import-row=\"3\" data-outcome=\"error\">"))
        #expect(preview.text.contains("<tr id=\"import-row-2\" data-import-row=\"2\" data-outcome=\"create\">"))
        #expect(preview.text.contains("오류 없는 1건만 적용"))

        // Errors only, without JS: the same preview with its error rows alone.
        let errorsOnly = try await harness.browser.get(try Self.href("data-import-errors-only", in: preview))
        #expect(errorsOnly.status == 200)
        #expect(errorsOnly.count(of: "data-import-row=") == 2 && !errorsOnly.text.contains("data-import-row=\"2\""))
        #expect(errorsOnly.text.contains("data-import-show-all"))

        let download = try await harness.browser.get(try Self.href("data-import-error-download", in: preview))
        #expect(download.status == 200)
        #expect(download.header("Content-Type") == "text/csv; charset=utf-8")
        #expect(download.header("Content-Disposition") == "attachment; filename=\"products-errors.csv\"")
        #expect(download.body.starts(with: [0xEF, 0xBB, 0xBF]))
        let lines = download.text.dropFirst().components(separatedBy: "\r\n")
        #expect(lines[0] == "상품명,상세설명,판매가,재고수량,이미지,메모,오류 내용")
        // As sent, with the export's protection before a formula; the reason last, in Korean.
        #expect(lines[1].hasPrefix("\"'=HYPERLINK(\"\"x\"\")\",짧다,\"12,000\",3,https://example.com/b.jpg,\"줄바꿈"))
        #expect(lines[2].hasSuffix("있는 메모\",상세설명: 상세설명은 10자 이상 입력해 주세요(지금 2자)."))
        #expect(lines[3].hasPrefix("꿀 선물세트,꿀 선물세트 세 병입니다.,abc,2,https://example.com/c.jpg,,\"판매가: 판매가를 숫자로 입력해 주세요(예: 12,000).\""))
        #expect(lines.count == 5 && lines[4].isEmpty)

        // The same download in English names its reason column in English.
        let english = try await harness.browser.get(try Self.href("data-import-error-download", in: preview) + "?lang=en")
        #expect(english.text.contains(",메모,Import errors\r\n"))

        // Fixed in the spreadsheet and uploaded onto the preview: the reason column is ignored.
        let fixed = download.text.replacingOccurrences(of: ",짧다,", with: ",손잡이가 큰 머그컵입니다.,")
            .replacingOccurrences(of: ",abc,", with: ",\"30,000\",")
        let corrected = try await Self.correct(harness, preview: preview, csv: Data(fixed.utf8))
        #expect(corrected.status == 303)
        let again = try await harness.browser.get(try #require(corrected.header("Location")))
        #expect(again.text.contains("data-import-row=\"2\" data-outcome=\"create\""))
        #expect(again.text.contains("data-import-row=\"3\" data-outcome=\"create\""))
        #expect(!again.text.contains("data-outcome=\"error\"") && !again.text.contains("data-import-problems"))
        // A second round of fixes replaces the reason column, never doubles it.
        let secondRound = ImportErrorRows.csv(header: ["name", "Import errors"], rows: [(cells: ["x", "old"], reason: "new")],
                                              reasonColumn: "오류 내용", reasonColumnNames: ["Import errors", "오류 내용"])
        #expect(String(decoding: secondRound, as: UTF8.self) == "\u{FEFF}name,오류 내용\r\nx,new\r\n")
    }

    @Test func aFileOfAHundredColumnsComesBackWithItsReasonColumn() async throws {
        let harness = try await ImportRouteTests.start()
        // A seller's sheet at the column limit: the importer's columns, then their own up to 100.
        let own = (1...94).map { "note\($0)" }
        let header = ["name", "description", "price", "currency", "stock", "images"] + own
        func row(_ price: String) -> String {
            (["Oak board", "A sturdy oak cutting board.", price, "KRW", "4", "https://example.com/a.jpg"] + own.map { _ in "x" })
                .joined(separator: ",")
        }
        let file = ([header.joined(separator: ","), row("abc")] + [""]).joined(separator: "\r\n")
        let preview = try await ImportRouteTests.preview(harness, csv: Data(file.utf8))
        #expect(preview.status == 422 && preview.text.contains("data-outcome=\"error\""))
        let download = try await harness.browser.get(try Self.href("data-import-error-download", in: preview))
        let lines = download.text.dropFirst().components(separatedBy: "\r\n")
        #expect(lines[0].split(separator: ",", omittingEmptySubsequences: false).count == 101)

        // Fixed and uploaded again, with the reason column as the 101st: read, not refused.
        let fixed = download.text.replacingOccurrences(of: ",abc,", with: ",25000,")
        let corrected = try await Self.correct(harness, preview: preview, csv: Data(fixed.utf8))
        #expect(corrected.status == 303)
        let again = try await harness.browser.get(try #require(corrected.header("Location")))
        #expect(again.text.contains("data-import-row=\"2\" data-outcome=\"create\""))

        // A 101st column that is not the reason column is still over the limit.
        let wide = file.replacingOccurrences(of: "note94\r\n", with: "note94,extra\r\n")
            .replacingOccurrences(of: ",x\r\n", with: ",x,y\r\n")
        let refused = try await ImportRouteTests.preview(harness, csv: Data(wide.utf8))
        #expect(refused.status == 422 && refused.text.contains("Line 1 has more than 100 columns"))
    }

    @Test func onlyThePersonWhoMadeThePreviewMayDownloadItsErrorRows() async throws {
        var options = PanelHarness.Options()
        options.signIn = true
        let harness = try await PanelHarness.start(options)
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner()
        let invitation = try await harness.invite("mina", role: "editor")
        let mina = harness.newBrowser()
        try await harness.accept(invitation, password: "mina-password-1", in: mina)

        let preview = try await ImportRouteTests.preview(harness, csv: Data(Self.sellersFile.utf8))
        #expect(preview.status == 422)
        let download = try Self.href("data-import-error-download", in: preview)
        #expect(try await harness.browser.get(download).status == 200)
        let other = try await mina.get(download)
        #expect(other.status == 404 && !other.text.contains("HYPERLINK"))
        #expect(try await mina.get(download.replacingOccurrences(of: "/errors.csv", with: "")).status == 404)
        let signedOut = try await harness.newBrowser().get(download)
        #expect(signedOut.status == 303 && !signedOut.text.contains("HYPERLINK"))
        // Nor may she upload a corrected file onto it.
        let token = try #require(try await mina.get("/products/import").inputValue("csrf_token"))
        let onto = try await mina.postMultipart(download.replacingOccurrences(of: "/errors.csv", with: "/file"),
            fields: [("csrf_token", token)],
            files: [.init(name: "file", filename: "products.csv", type: "text/csv", data: Data(Self.sellersFile.utf8))])
        #expect(onto.status == 404)
    }

    @Test func applyingTheRowsWithoutErrorsLeavesTheErrorRowsOutAndRetriesOnlyFailedRows() async throws {
        let harness = try await ImportRouteTests.start()
        let existing = try await harness.makeProduct(name: "Green tea", stock: 3)
        let csv = "id,name,description,price,stock,images\n"
            + "\(existing.id),,,,9,\n"
            + ",Mug one,A description long enough,1000,2,a.png\n"
            + ",Broken,short,1000,2,a.png\n"
            // Loopback is refused for photo URLs (not the API's origin): this row fails at apply.
            + ",Mug two,A description long enough,2000,1,http://127.0.0.1:9/x.jpg\n"
        let preview = try await ImportRouteTests.preview(harness, csv: Data(csv.utf8),
            photos: [.init(filename: "a.png", type: "image/png", data: TestImages.png(seed: 1))])
        #expect(preview.status == 422)
        #expect(preview.text.contains("name=\"skip_errors\" value=\"1\" data-import-apply-valid>Apply the 3 rows without errors</button>"))
        #expect(preview.text.contains("The row with an error is left out"))
        let action = try ImportRouteTests.applyAction(preview)

        // The strict default still refuses while a row is in error, and sends nothing.
        let token = try await harness.csrfToken(from: "/products/import")
        let strict = try await harness.browser.post(action, form: [("csrf_token", token)])
        #expect(strict.status == 422 && strict.text.contains("Some rows have errors"))
        #expect(try await harness.api.product(id: existing.id).stock == 3)
        #expect(try await ImportRouteTests.productCount(harness) == 1)

        let applied = try await harness.browser.post(action, form: [("csrf_token", token), ("skip_errors", "1")])
        #expect(applied.status == 303)
        let result = try await harness.browser.get(try #require(applied.header("Location")))
        #expect(result.text.contains("data-import-result=\"2\" data-outcome=\"done\""))
        #expect(result.text.contains("data-import-result=\"3\" data-outcome=\"done\""))
        #expect(result.text.contains("data-import-result=\"5\" data-outcome=\"failed\""))
        #expect(!result.text.contains("data-import-result=\"4\""))
        #expect(result.text.contains("data-import-left-out>1 row with an error was left out."))
        #expect(try await harness.api.product(id: existing.id).stock == 9)
        #expect(try await ImportRouteTests.productCount(harness) == 2)

        // The retry keeps to the rows without errors: the failed row again, nothing twice.
        #expect(result.text.contains("name=\"skip_errors\" value=\"1\""))
        let again = try await harness.browser.post(try ImportRouteTests.applyAction(result),
                                                   form: [("csrf_token", token), ("skip_errors", "1")])
        #expect(again.status == 303)
        let retry = try await harness.browser.get(try #require(again.header("Location")))
        #expect(retry.text.contains("data-import-result=\"5\" data-outcome=\"failed\""))
        #expect(try await ImportRouteTests.productCount(harness) == 2)
        #expect(try await harness.browser.get("/activity?action=import").count(of: "data-action=\"import\"") == 2)

        // The left-out row, fixed, goes back onto the same import from its result page, and its
        // photo comes along: nothing to choose again.
        #expect(retry.text.contains("data-import-corrected"))
        #expect(retry.text.contains("The photo uploaded with this file is kept"))
        #expect(retry.text.contains("those rows alone open as a new preview"))
        let download = try await harness.browser.get(try Self.href("data-import-error-download", in: retry))
        let fixed = download.text.replacingOccurrences(of: ",short,", with: ",A description long enough,")
        let corrected = try await Self.correct(harness, preview: retry, csv: Data(fixed.utf8))
        #expect(corrected.status == 303)
        let fixedPreview = try await harness.browser.get(try #require(corrected.header("Location")))
        #expect(fixedPreview.count(of: "data-import-row=") == 1)
        #expect(fixedPreview.text.contains("data-import-row=\"2\" data-outcome=\"create\""))
        #expect(!fixedPreview.text.contains("No uploaded photo is named"))
    }

    @Test func aCorrectedFileKeepsThePreviewsPhotos() async throws {
        let harness = try await ImportRouteTests.start()
        let first = "name,description,price,images\n"
            + "원목 도마,원목으로 만든 튼튼한 도마입니다.,,도마.jpg|도마_옆.png\n"
            + "머그컵,손잡이가 큰 머그컵입니다.,9000,컵.png\n"
        let preview = try await ImportRouteTests.preview(harness, csv: Data(first.utf8), photos: [
            .init(filename: "도마.jpg", type: "image/png", data: TestImages.png(seed: 1)),
            .init(filename: "도마_옆.png", type: "image/png", data: TestImages.png(seed: 2)),
            .init(filename: "컵.png", type: "image/png", data: TestImages.png(seed: 3)),
        ])
        #expect(preview.status == 422 && preview.text.contains("data-import-row=\"2\" data-outcome=\"error\""))
        #expect(preview.text.contains("data-import-corrected") && preview.text.contains("The 3 photos uploaded with this file are kept"))

        // The price filled in; no photo chosen again but a new version of one, in other letter case.
        let fixed = first.replacingOccurrences(of: "도마입니다.,,", with: "도마입니다.,25000,")
        let corrected = try await Self.correct(harness, preview: preview, csv: Data(fixed.utf8),
            photos: [.init(filename: "컵.PNG", type: "image/png", data: TestImages.png(seed: 4))])
        #expect(corrected.status == 303)
        let location = try #require(corrected.header("Location"))
        let again = try await harness.browser.get(location)
        #expect(again.text.contains("with the 2 photos uploaded before"))
        #expect(again.text.contains("The 3 photos uploaded with this file are kept"))
        #expect(again.text.contains("data-import-row=\"2\" data-outcome=\"create\""))
        #expect(again.text.contains("data-import-row=\"3\" data-outcome=\"create\""))
        // The first preview made way for its correction: it can no longer be applied beside it.
        let old = try ImportRouteTests.applyAction(preview).replacingOccurrences(of: "/apply", with: "")
        #expect(old != location)
        #expect(try await harness.browser.get(old).status == 404)

        let result = try await ImportRouteTests.apply(harness, again)
        #expect(result.count(of: "data-outcome=\"done\"") == 2)
        let list = try await harness.api.listProducts(page: 1, itemsPerPage: 10)
        let board = try #require(list.pages.first { $0.name == "원목 도마" })
        #expect(try await harness.api.product(id: board.id).images.count == 2)

        // A preview past its 24 hours takes no corrected file.
        let late = try await ImportRouteTests.preview(harness, csv: Data(first.utf8))
        harness.clock.advance(24 * 3600 + 1)
        let refused = try await Self.correct(harness, preview: late, csv: Data(fixed.utf8))
        #expect(refused.status == 410)
    }

    @Test func aCorrectedFileThatCannotBeReadKeepsThePreview() async throws {
        let harness = try await ImportRouteTests.start()
        let preview = try await ImportRouteTests.preview(harness, csv: Data(Self.sellersFile.utf8))
        let refused = try await Self.correct(harness, preview: preview, csv: TestImages.png(seed: 1))
        #expect(refused.status == 422)
        #expect(refused.text.contains("data-import-error") && refused.text.contains("is neither text (CSV)"))
        #expect(refused.text.contains("data-import-row=\"3\" data-outcome=\"error\""))
    }
}
