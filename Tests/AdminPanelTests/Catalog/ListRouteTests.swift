import Foundation
import Testing
import TestSupport
@testable import AdminPanel

@Suite(.awaitsTeardown) struct ListRouteTests {
    @Test func rootRedirectsToTheList() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let response = try await harness.browser.get("/")
        #expect(response.status == 303)
        #expect(response.header("Location") == "/products")
    }

    @Test func listShowsTwentyPerPageWithPaginationAndSecurityHeaders() async throws {
        let harness = try await PanelHarness.start(.init(seed: 45))
        Teardown.add { await harness.stop() }
        let page = try await harness.browser.get("/products")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains("<main id=\"content\" class=\"container page\" data-view=\"list\">"))
        #expect(page.count(of: "data-product-id=") == 20)
        #expect(page.text.contains("href=\"/products?page=1&amp;view=list\" aria-current=\"page\""))
        #expect(page.text.contains("href=\"/products?page=3&amp;view=list\""))
        #expect(page.text.contains("rel=\"next\""))
        #expect(!page.text.contains("rel=\"prev\""))
        #expect(page.header("Content-Security-Policy") == SecurityHeaders.contentSecurityPolicy)
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        #expect(page.header("Cache-Control") == "no-store")
        #expect(page.header("Referrer-Policy") != nil)
        #expect(!page.text.contains(harness.demoSecret))
        #expect(!page.text.contains(harness.demoIdentifier))

        let last = try await harness.browser.get("/products?page=3")
        #expect(last.count(of: "data-product-id=") == 5)
        #expect(last.text.contains("rel=\"prev\""))
        #expect(!last.text.contains("rel=\"next\""))
        #expect(last.text.contains("aria-current=\"page\" class=\"pagination__current\">3<"))
    }

    @Test func discountedAndSoldOutProductsAreMarked() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        _ = try await harness.api.create(.init(name: "Discounted mug", description: "A mug with a discount.", price: 12000,
                                               currency: .KRW, discountedPrice: 2000, stock: 0,
                                               images: [.init(filename: "a.png", data: TestImages.png())]))
        _ = try await harness.api.create(.init(name: "Dollar cup", description: "Priced in dollars.", price: 12.5,
                                               currency: .USD, discountedPrice: 0, stock: 4,
                                               images: [.init(filename: "a.png", data: TestImages.png())]))
        let page = try await harness.browser.get("/products")
        #expect(page.text.contains("₩12,000</del>"))
        #expect(page.text.contains("₩10,000</ins>"))
        #expect(page.text.contains("Sold out"))
        #expect(page.text.contains("$12.50"))
        #expect(page.text.contains("4 in stock"))
    }

    @Test func gridChoiceIsRememberedInACookie() async throws {
        let harness = try await PanelHarness.start(.init(seed: 3))
        Teardown.add { await harness.stop() }
        let grid = try await harness.browser.get("/products?view=grid")
        #expect(grid.text.contains("data-view=\"grid\""))
        #expect(grid.headers("Set-Cookie").contains { $0.hasPrefix("om_view=grid") && $0.contains("HttpOnly") && $0.contains("SameSite=Strict") })
        #expect(grid.text.contains("data-view-toggle href=\"/products?page=1&amp;view=list\""))
        let again = try await harness.browser.get("/products")
        #expect(again.text.contains("data-view=\"grid\""))
        let list = try await harness.browser.get("/products?view=list")
        #expect(list.text.contains("data-view=\"list\""))
        #expect(harness.browser.cookies["om_view"] == "list")
    }

    @Test func koreanSearchFindsMatchesAndKeepsTheQuery() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        try await harness.makeProduct(name: "우유병 텀블러")
        try await harness.makeProduct(name: "Desk lamp")
        let found = try await harness.browser.get("/products?q=" + TestBrowser.formEncode("텀블러"))
        #expect(found.status == 200)
        #expect(found.count(of: "data-product-id=") == 1)
        #expect(found.text.contains("우유병 텀블러"))
        #expect(found.inputValue("q") == "텀블러")
        let none = try await harness.browser.get("/products?q=nothing-like-this")
        #expect(none.count(of: "data-product-id=") == 0)
        #expect(none.text.contains("No products match"))
    }

    @Test func emptyStoreInvitesToRegister() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let page = try await harness.browser.get("/products")
        #expect(page.status == 200)
        #expect(page.text.contains("No products yet"))
        #expect(page.text.contains("class=\"button button--primary\" href=\"/products/new\">Register a product"))
        let far = try await harness.browser.get("/products?page=7")
        #expect(far.status == 200)
        #expect(far.text.contains("Page 7 is empty"))
    }

    @Test func nonsenseParametersFallBackToDefaults() async throws {
        let harness = try await PanelHarness.start(.init(seed: 2))
        Teardown.add { await harness.stop() }
        let page = try await harness.browser.get("/products?page=-4&view=<b>")
        #expect(page.status == 200)
        #expect(page.text.contains("data-view=\"list\""))
        #expect(page.count(of: "data-product-id=") == 2)
    }

    @Test func staticFilesHealthAndUnknownPaths() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let css = try await harness.browser.get("/static/app.css")
        #expect(css.status == 200)
        #expect(css.header("Content-Type")?.hasPrefix("text/css") == true)
        #expect(css.header("X-Content-Type-Options") == "nosniff")
        let escape = try await harness.browser.get("/static/../Package.swift")
        #expect(escape.status == 404)
        let health = try await harness.browser.get("/healthz")
        #expect(health.status == 200)
        let json = try JSONSerialization.jsonObject(with: health.body) as? [String: Any]
        #expect(json?["panel"] as? String == "up")
        #expect(json?["api_reachable"] as? Bool == true)
        #expect(json?["version"] is String)
        let missing = try await harness.browser.get("/no/such/page")
        #expect(missing.status == 404)
        #expect(missing.text.contains("role=\"alert\""))
        #expect(missing.header("Content-Security-Policy") != nil)
    }
}
