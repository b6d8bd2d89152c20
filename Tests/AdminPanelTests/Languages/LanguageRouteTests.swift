import Foundation
import Testing
import TestSupport
import OpenMarketCore
@testable import AdminPanel

/// Pages in the reader's language, over real HTTP.
@Suite(.awaitsTeardown) struct LanguageRouteTests {
    @Test func aKoreanBrowserGetsAKoreanPanel() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct(name: "커피 원두")
        let list = try await harness.browser.get("/products", headers: [("Accept-Language", "ko-KR,ko;q=0.9,en;q=0.8")])
        #expect(list.status == 200)
        #expect(list.text.contains("<html lang=\"ko\">"))
        #expect(list.text.contains("<h1>상품 목록</h1>"))
        #expect(list.text.contains("재고 3개"))
        #expect(!list.text.contains(">Products<"))
        let detail = try await harness.browser.get("/products/\(product.id)", headers: [("Accept-Language", "ko")])
        #expect(detail.text.contains("<dt>등록일</dt>"))
        #expect(detail.text.range(of: #"\d{4}년 \d{1,2}월 \d{1,2}일"#, options: .regularExpression) != nil)
        let english = try await harness.browser.get("/products", headers: [("Accept-Language", "en-US")])
        #expect(english.text.contains("<html lang=\"en\">"))
        #expect(english.text.contains("<h1>Products</h1>"))
    }

    @Test func theHeaderLinksSwitchAndTheChoiceIsRemembered() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let korean = [("Accept-Language", "ko")]
        let first = try await harness.browser.get("/products?view=grid&q=%EC%BB%A4%ED%94%BC", headers: korean)
        // Each language link keeps the page and its query, with lang= added.
        #expect(first.text.contains("href=\"/products?view=grid&amp;q=%EC%BB%A4%ED%94%BC&amp;lang=en\" lang=\"en\""))
        let switched = try await harness.browser.get("/products?view=grid&lang=en", headers: korean)
        #expect(switched.text.contains("<html lang=\"en\">"))
        let cookie = switched.headers("Set-Cookie").first { $0.hasPrefix("om_lang=") }
        #expect(cookie?.hasPrefix("om_lang=en;") == true)
        #expect(cookie?.contains("Max-Age=") == true)
        #expect(harness.browser.cookies["om_lang"] == "en")
        let later = try await harness.browser.get("/products/new", headers: korean)
        #expect(later.text.contains("<html lang=\"en\">"))
        #expect(later.text.contains("Register a product"))
    }

    @Test func validationErrorsAndFlashesAreTranslated() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        harness.browser.setCookie("om_lang", "ko")
        let product = try await harness.makeProduct()
        let form = try await harness.browser.get("/products/\(product.id)/edit")
        #expect(form.text.contains("변경 사항 저장"))
        let invalid = try await harness.browser.post("/products/\(product.id)/edit",
            form: EditRouteTests.editFields(from: form, overriding: ["discounted_price": "20000"]))
        #expect(invalid.status == 422)
        #expect(invalid.text.contains("즉시할인 금액은 판매가(₩12,000)보다 클 수 없습니다."))
        #expect(invalid.text.contains("입력 내용을 확인해 주세요(1건)"))
        let saved = try await harness.browser.post("/products/\(product.id)/edit",
            form: EditRouteTests.editFields(from: form, overriding: ["stock": "8"]))
        #expect(saved.status == 303)
        let after = try await harness.browser.get("/products/\(product.id)")
        #expect(after.text.contains("’ 변경 사항을 저장했습니다."))
        let missing = try await harness.browser.get("/no-such-page")
        #expect(missing.status == 404)
        #expect(missing.text.contains("이 주소에는 페이지가 없습니다."))
    }
}
