import Foundation
import Testing
import TestSupport
import OpenMarketCore
import OpenMarketSandbox
@testable import AdminPanel

/// Bulk actions: the arithmetic and the id checks, then whole runs against the sandbox.
@Suite(.awaitsTeardown) struct BulkTests {
    @Test func priceAdjustmentsParseAndRound() throws {
        #expect(PriceAdjustment.parse("+1000") == PriceAdjustment(change: .amount(1000)))
        #expect(PriceAdjustment.parse("-500") == PriceAdjustment(change: .amount(-500)))
        #expect(PriceAdjustment.parse("-10%") == PriceAdjustment(change: .percent(-10)))
        #expect(PriceAdjustment.parse("+5%") == PriceAdjustment(change: .percent(5)))
        #expect(PriceAdjustment.parse("2.5") == PriceAdjustment(change: .amount(2.5)))
        for bad in ["", "+", "%", "abc", "1e3", "--5", "+-5", "10%%", "-100%", "+1001%", "0", "+0%", "1.234",
                    "99999999999999", " + 5", "５"] {
            #expect(PriceAdjustment.parse(bad) == nil, "accepted \(bad)")
        }
        let tenOff = try #require(PriceAdjustment.parse("-10%"))
        // KRW rounds to whole won (half away from zero), USD to cents.
        #expect(tenOff.apply(price: 12_345, discountedPrice: 0, currency: .KRW)
                == .init(price: 11_111, discountedPrice: 0, discountClamped: false))   // 11,110.5 → 11,111
        #expect(tenOff.apply(price: 19.99, discountedPrice: 0, currency: .USD)
                == .init(price: 17.99, discountedPrice: 0, discountClamped: false))   // 17.991 → 17.99
        #expect(try #require(PriceAdjustment.parse("+5%")).apply(price: 10.01, discountedPrice: 1, currency: .USD)
                == .init(price: 10.51, discountedPrice: 1, discountClamped: false))   // 10.5105 → 10.51
        #expect(try #require(PriceAdjustment.parse("+1000")).apply(price: 5000, discountedPrice: 500, currency: .KRW)
                == .init(price: 6000, discountedPrice: 500, discountClamped: false))
        // A discount above the new price is lowered to it, and the outcome says so.
        #expect(try #require(PriceAdjustment.parse("-500")).apply(price: 1000, discountedPrice: 800, currency: .KRW)
                == .init(price: 500, discountedPrice: 500, discountClamped: true))
        // The price must stay above 0.
        #expect(try #require(PriceAdjustment.parse("-1000")).apply(price: 1000, discountedPrice: 0, currency: .KRW) == nil)
        #expect(try #require(PriceAdjustment.parse("-99.99%")).apply(price: 1000, discountedPrice: 0, currency: .KRW) == nil)
    }

    @Test func idsAreLimitedDeduplicatedAndFilteredToOwnProducts() throws {
        #expect(try BulkSelection.ids(["3", "1", "3", "x", "-2", " 7 "]) == [3, 1, 7])
        #expect(throws: BulkSelection.Problem.nothingSelected) { try BulkSelection.ids([]) }
        #expect(throws: BulkSelection.Problem.nothingSelected) { try BulkSelection.ids(["abc"]) }
        #expect(throws: BulkSelection.Problem.tooMany(101)) { try BulkSelection.ids((1...101).map(String.init)) }
        #expect(try BulkSelection.ids((1...100).map(String.init)).count == 100)
        let snapshot = CatalogSnapshot([CatalogQueryTests.product(1, vendor: 7), CatalogQueryTests.product(2, vendor: 8),
                                        CatalogQueryTests.product(3, vendor: 7)])
        let split = BulkSelection.partition([3, 2, 9, 1], in: snapshot, ownVendorID: 7)
        #expect(split.allowed.map(\.id) == [3, 1])
        #expect(split.refused.map(\.id) == [2, 9])
        #expect(split.refused.map(\.reason) == ["bulk_reason_not_yours", "bulk_reason_unknown"])
        #expect(BulkSelection.partition([1], in: snapshot, ownVendorID: nil).allowed.isEmpty)
        #expect(try BulkSelection.action { ["action": "set-stock", "stock": "5"][$0] } == .setStock(5))
        #expect(throws: BulkSelection.Problem.invalid("bulk_error_stock")) {
            try BulkSelection.action { ["action": "set-stock", "stock": "-1"][$0] }
        }
        #expect(throws: BulkSelection.Problem.invalid("bulk_error_password")) {
            try BulkSelection.action { ["action": "delete"][$0] }
        }
        #expect(throws: BulkSelection.Problem.invalid("bulk_error_action")) {
            try BulkSelection.action { ["action": "explode"][$0] }
        }
    }

    static func rows(_ page: RawResponse) -> [Int: String] {
        var result: [Int: String] = [:]
        for part in page.text.components(separatedBy: "data-bulk-result=\"").dropFirst() {
            guard let id = Int(part.prefix { $0.isNumber }),
                  let outcome = part.components(separatedBy: "data-outcome=\"").dropFirst().first?.prefix(while: { $0 != "\"" })
            else { continue }
            result[id] = String(outcome)
        }
        return result
    }

    @Test func mixedSelectionReportsEachProductAndBoundsConcurrency() async throws {
        let other = VendorSeed(name: "other", identifier: "5b1f6c1e-0000-4000-8000-000000000002", secret: "other-secret-123")
        let harness = try await PanelHarness.start(.init(otherVendor: other))
        Teardown.add { await harness.stop() }
        var mine: [ProductDetail] = []
        for n in 0..<12 { mine.append(try await CatalogRouteTests.make(harness, "Bulk \(n)", price: 1000, discount: 800)) }
        let foreignAPI = OpenMarketClient(configuration: ClientConfiguration(
            baseURL: harness.client.baseURL, dialect: .v2a, identifier: other.identifier, secret: other.secret, timeout: 60),
            transport: harness.transport)
        let foreign = try await foreignAPI.create(NewProduct(name: "Not mine", description: "Another vendor's product.",
            price: 5000, currency: .KRW, discountedPrice: 0, stock: 1, images: [ImageUpload(filename: "a.png", data: TestImages.png())]))

        let list = try await harness.browser.get("/products?sort=oldest&per_page=50")
        #expect(list.text.contains("<form data-bulk method=\"post\" action=\"/products/bulk\""))
        #expect(list.text.contains("<select name=\"action\">"))
        #expect(list.count(of: "name=\"ids\"") == 12)   // own products only
        #expect(!list.text.contains("name=\"ids\" value=\"\(foreign.id)\""))
        let token = try #require(list.inputValue("csrf_token"))

        var form: [(String, String)] = [("csrf_token", token), ("action", "adjust-price"), ("amount", "-500"),
                                        ("back", "/products?sort=oldest")]
        for product in mine { form.append(("ids", String(product.id))) }
        form.append(("ids", String(foreign.id)))
        form.append(("ids", "999999"))
        let result = try await harness.browser.post("/products/bulk", form: form)
        #expect(result.status == 200)
        let rows = Self.rows(result)
        #expect(rows.count == 14)
        #expect(mine.allSatisfy { rows[$0.id] == "done" })
        #expect(rows[foreign.id] == "failed" && rows[999999] == "failed")
        #expect(result.text.contains("the discount was lowered to ₩500"))
        #expect(result.text.contains("belongs to another vendor"))
        let peak = harness.panel.app.bulkGauge.peak
        #expect(peak > 1 && peak <= 4)
        let changed = try await harness.api.product(id: mine[0].id)
        #expect(changed.price == 500 && changed.discountedPrice == 500)
        #expect(try await foreignAPI.product(id: foreign.id).price == 5000)
        // The copy shows it at once, and every outcome is in the activity log.
        let cheap = try await harness.browser.get("/products?sort=price&per_page=50")
        #expect(CatalogRouteTests.ids(cheap).prefix(12).sorted() == mine.map(\.id).sorted())
        let logged = try await harness.panel.app.stores.activity.list(ActivityLog.Filter(action: "bulk"), page: 1, pageSize: 100).rows
        #expect(logged.count == 14)
    }

    @Test func wrongPasswordDeletesNothingAndCountsOnce() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        var ids: [Int] = []
        for n in 0..<5 { ids.append(try await CatalogRouteTests.make(harness, "Keep \(n)").id) }
        let list = try await harness.browser.get("/products?sort=oldest")
        let token = try #require(list.inputValue("csrf_token"))
        let wrong = try await harness.browser.post("/products/bulk", form: [("csrf_token", token), ("action", "delete"),
            ("password", "not-the-password")] + ids.map { ("ids", String($0)) })
        #expect(Self.rows(wrong).values.allSatisfy { $0 == "failed" } && Self.rows(wrong).count == 5)
        for id in ids { #expect(try await harness.api.product(id: id).id == id) }
        // Counted once: four more wrong tries are allowed before the pause.
        #expect(await harness.panel.app.deleteGate.remaining("local", DeleteAttempt.panelWide) == 4)

        let right = try await harness.browser.post("/products/bulk", form: [("csrf_token", token), ("action", "delete"),
            ("password", harness.demoSecret), ("select_all", "1")] + ids.prefix(3).map { ("page_ids", String($0)) })
        #expect(Self.rows(right).count == 3 && Self.rows(right).values.allSatisfy { $0 == "done" })
        let after = try await harness.browser.get("/products?sort=oldest")
        #expect(CatalogRouteTests.ids(after) == Array(ids.suffix(2)))
    }

    @Test func emptyTooManyAndViewerSelections() async throws {
        let harness = try await PanelHarness.start(.init(seed: 2))
        Teardown.add { await harness.stop() }
        let token = try await harness.csrfToken(from: "/products/new")
        let empty = try await harness.browser.post("/products/bulk", form: [("csrf_token", token), ("action", "set-stock"),
                                                                          ("stock", "1"), ("back", "/products?sort=name")])
        // Refused: the list it came from comes back (422) with the reason as an alert and the values kept.
        #expect(empty.status == 422)
        #expect(empty.text.contains("role=\"alert\" data-bulk-refusal>Nothing was changed: select at least one product first."))
        #expect(empty.text.contains("name=\"stock\" min=\"0\" max=\"1000000000\" inputmode=\"numeric\" value=\"1\""))
        #expect(!empty.text.contains("flash--success"))
        let many = try await harness.browser.post("/products/bulk", form: [("csrf_token", token), ("action", "set-stock"),
                                                                         ("stock", "1")] + (1...101).map { ("ids", String($0)) })
        #expect(many.status == 422)
        #expect(many.text.contains("at most 100"))
        let noToken = try await harness.browser.post("/products/bulk", form: [("action", "set-stock"), ("stock", "1"), ("ids", "1")])
        #expect(noToken.status == 403)
    }

    @Test func duplicateFillsTheRegisterFormWithStagedImages() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let original = try await harness.makeProduct(name: "Original mug", images: 3)
        let page = try await harness.browser.get("/products/\(original.id)/duplicate")
        #expect(page.status == 200)
        #expect(page.inputValue("name") == "Original mug (copy)")
        #expect(page.inputValue("price") == "12000")
        #expect(page.text.contains("data-staged-images"))
        #expect(page.count(of: "name=\"staged_remove\"") == 3)
        // Named by their place in the original, not by the API's hashed file names.
        for number in 1...3 { #expect(page.text.contains("<span class=\"image-item__name\">Image \(number).png</span>")) }
        let token = try #require(page.inputValue("csrf_token"))
        let staged = try #require(page.inputValue("staged_token"))
        let created = try await harness.browser.postMultipart("/products", fields: [
            ("csrf_token", token), ("staged_token", staged), ("name", "Original mug (copy)"),
            ("description", "A product made by a test."), ("price", "12000"), ("currency", "KRW"),
            ("discounted_price", "0"), ("stock", "3")], files: [])
        #expect(created.status == 303)
        let id = try #require(created.header("Location").flatMap { Int($0.split(separator: "/").last ?? "") })
        #expect(id != original.id)
        #expect(try await harness.api.product(id: id).images.count == 3)

        // In Korean the names are Korean, and the API takes them (a UTF-8 `filename*`).
        let korean = try await harness.browser.get("/products/\(original.id)/duplicate?lang=ko")
        #expect(korean.text.contains("<span class=\"image-item__name\">이미지 2.png</span>"))
        let koreanCopy = try await harness.browser.postMultipart("/products", fields: [
            ("csrf_token", try #require(korean.inputValue("csrf_token"))), ("staged_token", try #require(korean.inputValue("staged_token"))),
            ("name", "원본 머그 사본"), ("description", "테스트가 만든 상품입니다."), ("price", "12000"), ("currency", "KRW"),
            ("discounted_price", "0"), ("stock", "3")], files: [])
        #expect(koreanCopy.status == 303)
        let koreanID = try #require(koreanCopy.header("Location").flatMap { Int($0.split(separator: "/").last ?? "") })
        #expect(try await harness.api.product(id: koreanID).images.count == 3)
    }
}
