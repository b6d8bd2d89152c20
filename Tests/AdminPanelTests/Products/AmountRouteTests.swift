import Foundation
import Testing
import TestSupport
import OpenMarketCore
@testable import AdminPanel

/// Amounts as sellers type them (12,000 · ₩12,000 · +1,000) in every amount field, and KRW as
/// whole won: a fraction is refused by its field (422, `field-error`), never stored.
@Suite(.awaitsTeardown) struct AmountRouteTests {
    static func registerFields(_ token: String, price: String, discount: String = "0", currency: String = "KRW") -> [(String, String)] {
        [("csrf_token", token), ("name", "Grouped mug"), ("description", "A handmade ceramic mug, 350 ml."),
         ("currency", currency), ("price", price), ("discounted_price", discount), ("stock", "1,200")]
    }

    @Test func registerRefusesFractionsOfWonAndReadsGroupedAmounts() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        harness.browser.setCookie("om_lang", "ko")
        let token = try await harness.csrfToken(from: "/products/new")
        let image = TestBrowser.FilePart(filename: "a.png", type: "image/png", data: TestImages.png())

        let fraction = try await harness.browser.postMultipart("/products", fields: Self.registerFields(token, price: "12000.5"),
                                                               files: [image])
        #expect(fraction.status == 422)
        #expect(fraction.text.contains("<p class=\"field-error\" id=\"price-error\">원화 판매가는 소수점 없이 원 단위로 입력해 주세요"))
        #expect(fraction.inputValue("price") == "12000.5")   // kept as typed
        let discountFraction = try await harness.browser.postMultipart(
            "/products", fields: Self.registerFields(token, price: "12,000", discount: "1,000.5"), files: [image])
        #expect(discountFraction.status == 422)
        #expect(discountFraction.text.contains("id=\"discounted_price-error\""))
        #expect(!discountFraction.text.contains("id=\"price-error\""))

        // The KRW example follows the currency: no "12.50" for won.
        let form = try await harness.browser.get("/products/new")
        #expect(form.text.contains("placeholder=\"12,000\""))
        #expect(!form.text.contains("placeholder=\"12.50\""))
        #expect(form.text.contains("id=\"price\" name=\"price\" value=\"\" required inputmode=\"decimal\""))

        let created = try await harness.browser.postMultipart("/products", fields: Self.registerFields(token, price: "₩12,000",
                                                                                                       discount: "1,000"),
                                                              files: [image])
        #expect(created.status == 303)
        let id = try #require(created.header("Location").flatMap { Int($0.split(separator: "/").last ?? "") })
        let stored = try await harness.api.product(id: id)
        #expect(stored.price == 12_000 && stored.discountedPrice == 1_000 && stored.stock == 1_200)

        // Dollars keep their cents.
        let dollars = try await harness.browser.postMultipart("/products", fields: Self.registerFields(token, price: "$12.50", currency: "USD"),
                                                              files: [image])
        #expect(dollars.status == 303)
    }

    @Test func editRefusesFractionsOfWonAndAcceptsGrouping() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()
        let form = try await harness.browser.get("/products/\(product.id)/edit")
        let refused = try await harness.browser.post("/products/\(product.id)/edit",
            form: EditRouteTests.editFields(from: form, overriding: ["price": "15,000.5"]))
        #expect(refused.status == 422)
        #expect(refused.text.contains("id=\"price-error\">Enter a KRW price in whole won"))
        #expect(try await harness.api.product(id: product.id).price == 12_000)
        let saved = try await harness.browser.post("/products/\(product.id)/edit",
            form: EditRouteTests.editFields(from: form, overriding: ["price": "₩15,000", "discounted_price": "1,500"]))
        #expect(saved.status == 303)
        let now = try await harness.api.product(id: product.id)
        #expect(now.price == 15_000 && now.discountedPrice == 1_500)
    }

    @Test func bulkAmountsTakeGrouping() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()
        let list = try await harness.browser.get("/products")
        let token = try #require(list.inputValue("csrf_token"))
        let raised = try await harness.browser.post("/products/bulk", form: [
            ("csrf_token", token), ("action", "adjust-price"), ("amount", "+1,000"), ("ids", String(product.id))])
        #expect(raised.status == 200)
        #expect(try await harness.api.product(id: product.id).price == 13_000)
        let discounted = try await harness.browser.post("/products/bulk", form: [
            ("csrf_token", token), ("action", "set-discount"), ("discounted_price", "₩1,500"), ("ids", String(product.id))])
        #expect(discounted.status == 200)
        #expect(try await harness.api.product(id: product.id).discountedPrice == 1_500)
        #expect(PriceAdjustment.parse("+1,000") == PriceAdjustment(change: .amount(1_000)))
        #expect(PriceAdjustment.parse("-₩500") == PriceAdjustment(change: .amount(-500)))
        #expect(PriceAdjustment.parse("+1,00") == nil)
    }
}
