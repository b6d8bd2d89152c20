import Foundation
import HTTPServer
import OpenMarketCore
import SQLiteStore
import TestSupport
import Testing
@testable import AdminPanel

/// The import end to end on the sandbox: the preview sends nothing, apply creates and updates,
/// a second apply after a failure creates nothing twice, and an export imports as unchanged.
@Suite(.awaitsTeardown) struct ImportRouteTests {
    /// Counts the writes that reach the sandbox.
    final class WriteCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func see(_ entry: AccessLogEntry) { if entry.method != "GET" && entry.method != "HEAD" { lock.withLock { value += 1 } } }
        var count: Int { lock.withLock { value } }
    }

    /// Live when it counts the sandbox's writes (its access log), or when asked.
    static func start(_ writes: WriteCounter? = nil, live: Bool = false) async throws -> PanelHarness {
        var options = PanelHarness.Options(live: live || writes != nil)
        if let writes { options.sandboxObserver = { writes.see($0) } }
        let harness = try await PanelHarness.start(options)
        Teardown.add { await harness.stop() }
        return harness
    }

    static func preview(_ harness: PanelHarness, csv: Data, photos: [TestBrowser.FilePart] = []) async throws -> RawResponse {
        let token = try await harness.csrfToken(from: "/products/import")
        return try await harness.browser.postMultipart("/products/import", fields: [("csrf_token", token)],
            files: [.init(name: "file", filename: "products.csv", type: "text/csv", data: csv)] + photos)
    }

    /// The apply form's action on a preview or result page.
    static func applyAction(_ page: RawResponse) throws -> String {
        let text = page.text
        let form = try #require(text.range(of: "data-import-apply"))
        let before = text[..<form.lowerBound]
        let action = try #require(before.range(of: "action=\"", options: .backwards))
        return String(text[action.upperBound...].prefix { $0 != "\"" })
    }

    static func apply(_ harness: PanelHarness, _ page: RawResponse) async throws -> RawResponse {
        let token = try await harness.csrfToken(from: "/products/import")
        let answer = try await harness.browser.post(try applyAction(page), form: [("csrf_token", token)])
        #expect(answer.status == 303)
        return try await harness.browser.get(try #require(answer.header("Location")))
    }

    static func productCount(_ harness: PanelHarness) async throws -> Int {
        try await harness.api.listProducts(page: 1, itemsPerPage: 100).totalCount
    }

    @Test func previewSendsNothingThenApplyCreatesAndUpdates() async throws {
        let writes = WriteCounter()
        let harness = try await Self.start(writes)
        let existing = try await harness.makeProduct(name: "Green tea", stock: 3)
        // The sandbox logs a request after answering it: wait until the register's write is counted.
        #expect(await eventually { writes.count >= 1 })
        let before = writes.count
        let csv = "id,name,description,price,currency,stock,images\n"
            + "\(existing.id),,,\"13,500\",KRW,9,\n"
            + "\"\",\"<b>새 머그컵</b>\",\"손잡이가 큰 머그컵입니다.\",\"₩12,000\",KRW,4,mug.png\n"
        let preview = try await Self.preview(harness, csv: Data(csv.utf8),
                                             photos: [.init(filename: "mug.png", type: "image/png", data: TestImages.png(seed: 3))])
        #expect(preview.status == 200)
        #expect(preview.text.contains("data-import-row=\"2\" data-outcome=\"update\""))
        #expect(preview.text.contains("data-import-row=\"3\" data-outcome=\"create\""))
        #expect(preview.text.contains("₩12,000</del> → ₩13,500"))
        // Cells are escaped, never markup.
        #expect(preview.text.contains("&lt;b&gt;새 머그컵&lt;/b&gt;") && !preview.text.contains("<b>새 머그컵"))
        #expect(writes.count == before)
        #expect(try await Self.productCount(harness) == 1)

        let result = try await Self.apply(harness, preview)
        #expect(result.text.contains("data-import-result=\"2\" data-outcome=\"done\""))
        #expect(result.text.contains("data-import-result=\"3\" data-outcome=\"done\""))
        #expect(result.text.contains("href=\"/products/\(existing.id)\""))
        let updated = try await harness.api.product(id: existing.id)
        #expect(updated.price == 13_500 && updated.stock == 9 && updated.name == "Green tea")
        let list = try await harness.api.listProducts(page: 1, itemsPerPage: 100)
        #expect(list.totalCount == 2)
        #expect(list.pages.contains { $0.name == "<b>새 머그컵</b>" && $0.stock == 4 })
        let activity = try await harness.browser.get("/activity?action=import")
        #expect(activity.count(of: "data-action=\"import\"") == 2)
    }

    @Test func applyingAgainRetriesOnlyFailedRowsAndNeverCreatesTwice() async throws {
        let harness = try await Self.start()
        let csv = "name,description,price,images\n"
            + "Mug one,A description long enough,1000,a.png\n"
            // Loopback is refused for photo URLs (not the API's origin): this row fails at apply.
            + "Mug two,A description long enough,2000,http://127.0.0.1:9/x.jpg\n"
        let preview = try await Self.preview(harness, csv: Data(csv.utf8),
                                             photos: [.init(filename: "a.png", type: "image/png", data: TestImages.png(seed: 1))])
        #expect(preview.status == 200)
        let first = try await Self.apply(harness, preview)
        #expect(first.text.contains("data-import-result=\"2\" data-outcome=\"done\""))
        #expect(first.text.contains("data-import-result=\"3\" data-outcome=\"failed\""))
        #expect(try await Self.productCount(harness) == 1)

        // As if the first create's answer had been lost after the API made it: the row is back
        // to `sending`, its intent recorded before the product existed.
        let database = try SQLiteConnection(path: harness.dataDirectory.appendingPathComponent("panel.sqlite").path)
        try database.run("UPDATE import_rows SET state = 'sending', product_id = NULL, intent_after_id = 0 WHERE line = 2")

        let second = try await Self.apply(harness, first)
        #expect(second.text.contains("data-import-result=\"2\" data-outcome=\"done\""))
        #expect(second.text.contains("data-import-result=\"3\" data-outcome=\"failed\""))
        #expect(try await Self.productCount(harness) == 1)
        // Done rows are never sent again; the retry form stays while a row failed.
        let third = try await Self.apply(harness, second)
        #expect(try await Self.productCount(harness) == 1)
        #expect(third.text.contains("data-import-apply"))
    }

    @Test func anExportImportsAsUnchanged() async throws {
        let harness = try await Self.start()
        try await harness.makeProduct(name: "=SUM(1,2)", stock: 2)
        try await harness.makeProduct(name: "Plain, with comma", stock: 0)
        let export = try await harness.browser.get("/products/export.csv")
        #expect(export.status == 200)
        let preview = try await Self.preview(harness, csv: export.body)
        #expect(preview.status == 200)
        #expect(preview.count(of: "data-outcome=\"unchanged\"") == 2)
        #expect(!preview.text.contains("data-import-apply"))
    }

    @Test func badFilesAreRefusedClearlyAndSendNothing() async throws {
        let writes = WriteCounter()
        let harness = try await Self.start(writes)
        let product = try await harness.makeProduct(name: "Green tea")
        #expect(await eventually { writes.count >= 1 })   // the register's write, logged after its answer
        let before = writes.count

        let binary = try await Self.preview(harness, csv: TestImages.png(seed: 1))
        #expect(binary.status == 422 && binary.text.contains("role=\"alert\"") && binary.text.contains("is neither text (CSV) nor an Excel workbook (.xlsx)"))
        let latin1 = try await Self.preview(harness, csv: Data([0x6E, 0x61, 0x6D, 0x65, 0x0A, 0xFF, 0xFE, 0x0A]))
        #expect(latin1.status == 422 && latin1.text.contains("neither UTF-8 nor Korean"))
        let wide = try await Self.preview(harness, csv: Data(("name\n" + String(repeating: "x,", count: 9_999) + "x\n").utf8))
        #expect(wide.status == 422 && wide.text.contains("Line 2 has more than 100 columns"))
        let duplicate = try await Self.preview(harness, csv: Data("id,stock\n\(product.id),1\n\(product.id),2\n".utf8))
        #expect(duplicate.status == 422 && duplicate.text.contains("data-import-row=\"3\" data-outcome=\"error\""))
        #expect(!duplicate.text.contains("data-import-apply"))
        let noName = try await Self.preview(harness, csv: Data("description,price,images\nA description long enough,100,a.png\n".utf8))
        #expect(noName.status == 422 && noName.text.contains("needs a name column"))
        let missingPhoto = try await Self.preview(harness, csv: Data("name,description,price,images\nMug,A description long enough,100,nope.jpg\n".utf8))
        #expect(missingPhoto.status == 422 && missingPhoto.text.contains("No uploaded photo is named “nope.jpg”"))
        #expect(writes.count == before)
    }

    @Test func cp949FilesAndBigPhotosWork() async throws {
        let harness = try await Self.start()
        let csv = "name,description,price,currency,stock,images\n커피 원두 1kg,\"갓 볶은 원두입니다, 향이 좋아요.\",\"18,000\",KRW,10,big.jpg\n"
        let cp949 = try #require(CSVTextDecoder.encodeForTests(csv))
        let big = try ImageShrinker.encodeJPEG(ImageShrinkerTests.photo(width: 1_600, height: 1_200), quality: 95)
        #expect(big.count > ProductRules.maxImageBytes)
        let preview = try await Self.preview(harness, csv: cp949, photos: [.init(filename: "big.jpg", type: "image/jpeg", data: big)])
        #expect(preview.status == 200)
        #expect(preview.text.contains("커피 원두 1kg"))
        let result = try await Self.apply(harness, preview)
        #expect(result.text.contains("data-outcome=\"done\""))
        let list = try await harness.api.listProducts(page: 1, itemsPerPage: 10)
        #expect(list.pages.first?.name == "커피 원두 1kg")
    }

    @Test func registerWithoutJSShrinksABigCameraPhoto() async throws {
        let harness = try await Self.start()
        let token = try await harness.csrfToken(from: "/products/new")
        let camera = try ImageShrinker.encodeJPEG(ImageShrinkerTests.photo(width: 2_400, height: 1_800), quality: 95)
        #expect(camera.count > ProductRules.maxImageBytes)
        let answer = try await harness.browser.postMultipart("/products", fields: RegisterRouteTests.fields(token),
            files: [.init(filename: "IMG_2001.JPG", type: "image/jpeg", data: camera)])
        #expect(answer.status == 303)
        let id = try #require(answer.header("Location").flatMap { Int($0.split(separator: "/").last ?? "") })
        let product = try await harness.api.product(id: id)
        #expect(product.images.count == 1)
    }

    @Test func aPreviewCanBeAppliedFor24HoursWithItsFormToken() async throws {
        let harness = try await Self.start()
        let product = try await harness.makeProduct(name: "Green tea", stock: 3)
        let preview = try await Self.preview(harness, csv: Data("id,stock\n\(product.id),8\n".utf8))
        let action = try Self.applyAction(preview)
        harness.clock.advance(24 * 3600 + 1)
        let token = try await harness.csrfToken(from: "/products/import")
        let late = try await harness.browser.post(action, form: [("csrf_token", token)])
        #expect(late.status == 410)
        #expect(try await harness.api.product(id: product.id).stock == 3)
        // Without a valid form token nothing is applied either.
        harness.clock.advance(-2)
        let forged = try await harness.browser.post(action, form: [("csrf_token", "x")])
        #expect(forged.status == 403)
        #expect(try await harness.api.product(id: product.id).stock == 3)
    }

    @Test func aPhotoURLOnTheAPIsOwnOriginIsFetched() async throws {
        let harness = try await Self.start(live: true)   // the photo is fetched from the sandbox's listener
        let source = try await harness.makeProduct(name: "Photo source")
        let url = try #require(source.images.first?.url)
        #expect(url.hasPrefix("http://127.0.0.1:"))  // loopback, allowed only as the API's own origin
        let csv = "name,description,price,images\nCopied photo,A description long enough,1000,\(url)\n"
        let preview = try await Self.preview(harness, csv: Data(csv.utf8))
        #expect(preview.text.contains("data-import-row=\"2\" data-outcome=\"create\""))
        let result = try await Self.apply(harness, preview)
        #expect(result.text.contains("data-import-result=\"2\" data-outcome=\"done\""))
        let list = try await harness.api.listProducts(page: 1, itemsPerPage: 10)
        #expect(list.pages.contains { $0.name == "Copied photo" })
    }

    @Test func aBodyOverTheLimitIs413() async throws {
        var options = PanelHarness.Options(live: true)   // refused by the server before it is read
        options.uploadLimit = 1 << 20
        let harness = try await PanelHarness.start(options)
        Teardown.add { await harness.stop() }
        let huge = Data(repeating: 0x61, count: (5 << 20) + (1 << 20) + 1024)
        let answer = try await Self.preview(harness, csv: huge)
        #expect(answer.status == 413)
    }
}

extension CSVTextDecoder {
    /// UTF-8 text as CP949 bytes (what Korean Excel saves), through iconv like the decoder.
    static func encodeForTests(_ text: String) -> Data? {
        let converter = iconv_open("CP949", "UTF-8")
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var input = Array(text.utf8).map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: input.count * 2 + 16)
        let written: Int = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer = inBuffer.baseAddress, inLeft = inBuffer.count
                var outPointer = outBuffer.baseAddress, outLeft = outBuffer.count
                guard iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != -1 else { return -1 }
                return outBuffer.count - outLeft
            }
        }
        guard written >= 0 else { return nil }
        return Data(output[..<written].map { UInt8(bitPattern: $0) })
    }
}
