import Foundation
import HTTPServer
import Testing
import TestSupport
import OpenMarketCore
@testable import AdminPanel

/// The catalog views end to end: a real sandbox, a real panel, changes made straight on the API.
@Suite(.awaitsTeardown) struct CatalogRouteTests {
    static func ids(_ page: RawResponse) -> [Int] {
        page.text.components(separatedBy: "data-product-id=\"").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
    }

    @discardableResult
    static func make(_ harness: PanelHarness, _ name: String, price: Double = 12000, discount: Double = 0,
                     stock: Int = 3, currency: Currency = .KRW) async throws -> ProductDetail {
        try await harness.api.create(NewProduct(name: name, description: "Made by a catalog test.", price: price,
                                                currency: currency, discountedPrice: discount, stock: stock,
                                                images: [ImageUpload(filename: "a.png", data: TestImages.png())]))
    }

    @Test func sortedFilteredViewsComeFromTheCopyWithControlsAndCounts() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let cheap = try await Self.make(harness, "Cheap sold out", price: 9000, discount: 5000, stock: 0)   // pays 4,000
        let mid = try await Self.make(harness, "Mid sold out", price: 5000, stock: 0)
        let tie = try await Self.make(harness, "Tie sold out", price: 4000, stock: 0)
        _ = try await Self.make(harness, "In stock", price: 1000, stock: 5)
        let page = try await harness.browser.get("/products?stock=sold-out&sort=price&view=grid")
        #expect(page.status == 200)
        #expect(Self.ids(page) == [cheap.id, tie.id, mid.id])
        #expect(page.text.contains("3 products match these filters · page 1 of 1"))
        #expect(page.text.contains("<select name=\"sort\">"))
        #expect(page.text.contains("<option value=\"price\" selected>"))
        #expect(page.text.contains("<select name=\"per_page\">"))
        #expect(page.text.contains("name=\"stock\" value=\"sold-out\" checked"))
        #expect(page.text.contains("name=\"show\" value=\"all\" checked"))
        #expect(page.text.contains("name=\"discounted\" value=\"1\""))
        #expect(page.text.contains("name=\"currency\" value=\"KRW\""))
        #expect(page.text.contains("data-copy-age="))
        #expect(page.text.contains("data-refresh"))
        #expect(page.text.contains("data-view=\"grid\""))
        // Links out of the list carry it in back=.
        let back = CatalogQuery.encode("/products?stock=sold-out&sort=price&view=grid")
        #expect(page.text.contains("href=\"/products/\(cheap.id)?back=\(back)\""))
        // The live list also offers the refresh button.
        let live = try await harness.browser.get("/products")
        #expect(live.text.contains("data-refresh"))
        #expect(!live.text.contains("data-copy-age="))
    }

    @Test func absurdPagesAndSizesGiveANormalPage() async throws {
        let harness = try await PanelHarness.start(.init(seed: 25))
        Teardown.add { await harness.stop() }
        let huge = try await harness.browser.get("/products?per_page=1000000000&sort=name")
        #expect(huge.status == 200 && Self.ids(huge).count == 20)
        let negative = try await harness.browser.get("/products?page=-1&sort=oldest")
        #expect(negative.status == 200 && Self.ids(negative).count == 20)
        #expect(negative.text.contains("page 1 of 2"))
        let far = try await harness.browser.get("/products?page=99&sort=oldest")
        #expect(far.status == 200 && Self.ids(far).count == 5)
        #expect(far.text.contains("aria-current=\"page\" class=\"pagination__current\">2<"))
        let fifty = try await harness.browser.get("/products?per_page=50&sort=-stock")
        #expect(Self.ids(fifty).count == 25)
        let liveHuge = try await harness.browser.get("/products?per_page=1000000000&page=-1")
        #expect(liveHuge.status == 200 && Self.ids(liveHuge).count == 20)
    }

    @Test func syncPicksUpChangesMadeDirectlyOnTheAPI() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let kept = try await Self.make(harness, "Kept")
        let doomed = try await Self.make(harness, "Doomed")
        let first = try await harness.browser.get("/products?sort=oldest")
        #expect(Self.ids(first) == [kept.id, doomed.id])

        // Elsewhere: a new product, an edit, a delete.
        let added = try await Self.make(harness, "무선 키보드")
        _ = try await harness.api.update(id: kept.id, changes: ProductChanges(stock: 0))
        _ = try await harness.api.delete(id: doomed.id, password: harness.demoSecret)

        // Within the copy's age limit the page still shows the copy…
        let stale = try await harness.browser.get("/products?sort=oldest")
        #expect(Self.ids(stale) == [kept.id, doomed.id])
        // …and after 60 s every view has caught up.
        harness.clock.advance(61)
        let fresh = try await harness.browser.get("/products?sort=oldest")
        #expect(Self.ids(fresh) == [kept.id, added.id])
        let soldOut = try await harness.browser.get("/products?stock=sold-out")
        #expect(Self.ids(soldOut) == [kept.id])
        let search = try await harness.browser.get("/products?q=" + TestBrowser.formEncode("무선키보드"))
        #expect(Self.ids(search) == [added.id])

        // The refresh button brings it up to date at once and returns to the list.
        _ = try await harness.api.delete(id: added.id, password: harness.demoSecret)
        let refreshed = try await harness.browser.get("/products/refresh?back=" + CatalogQuery.encode("/products?sort=oldest&view=list"))
        #expect(refreshed.status == 303)
        #expect(refreshed.header("Location") == "/products?sort=oldest&view=list")
        let after = try await harness.browser.get("/products?sort=oldest")
        #expect(Self.ids(after) == [kept.id])
        let evil = try await harness.browser.get("/products/refresh?back=//evil.example")
        #expect(evil.header("Location") == "/products")
    }

    @Test func changesThroughThePanelShowAtOnceAndBackReturnsThere() async throws {
        let harness = try await PanelHarness.start(.init(seed: 3))
        Teardown.add { await harness.stop() }
        let product = try await Self.make(harness, "Edit me", stock: 4)
        let listURL = "/products?page=1&view=list&stock=in-stock&per_page=50"
        #expect(Self.ids(try await harness.browser.get(listURL)).contains(product.id))

        let back = CatalogQuery.encode(listURL)
        let detail = try await harness.browser.get("/products/\(product.id)?back=\(back)")
        #expect(detail.text.contains("<a href=\"\(listURL.replacingOccurrences(of: "&", with: "&amp;"))\">← All products</a>"))
        #expect(detail.text.contains("href=\"/products/\(product.id)/edit?back=\(back)\""))
        #expect(detail.text.contains("href=\"/products/\(product.id)/delete?back=\(back)\""))

        let edit = try await harness.browser.get("/products/\(product.id)/edit?back=\(back)")
        #expect(edit.inputValue("back") == listURL)
        let token = try #require(edit.inputValue("csrf_token"))
        var fields = EditRouteTests.editFields(from: edit, overriding: ["stock": "0", "description": "Made by a catalog test."])
        fields.append(("back", listURL))
        let saved = try await harness.browser.post("/products/\(product.id)/edit", form: fields)
        #expect(saved.status == 303)
        #expect(saved.header("Location") == listURL)
        // No sync needed: the sold-out view has it at once, the in-stock one no longer does.
        #expect(!Self.ids(try await harness.browser.get(listURL)).contains(product.id))
        #expect(Self.ids(try await harness.browser.get("/products?stock=sold-out")).contains(product.id))

        let prompt = try await harness.browser.get("/products/\(product.id)/delete?back=\(back)")
        #expect(prompt.inputValue("back") == listURL)
        let deleted = try await harness.browser.post("/products/\(product.id)/delete", form: [
            ("csrf_token", token), ("password", harness.demoSecret), ("back", listURL)])
        #expect(deleted.status == 303)
        #expect(deleted.header("Location") == listURL)
        #expect(!Self.ids(try await harness.browser.get("/products?stock=sold-out")).contains(product.id))

        // A foreign back= is ignored.
        let other = try await Self.make(harness, "Other")
        let foreign = try await harness.browser.get("/products/\(other.id)?back=" + CatalogQuery.encode("https://evil.example/"))
        #expect(foreign.text.contains("<a href=\"/products\">← All products</a>"))
        #expect(!foreign.text.contains("href=\"https://evil.example"))
    }

    @Test func apiDownKeepsShowingTheCopyWithItsAgeAndAWarning() async throws {
        let stub = try StubAPI { _ in .text("down", status: 500) }
        Teardown.add { await stub.stop() }
        let harness = try await PanelHarness.start(.init(live: true, seed: 2))
        Teardown.add { await harness.stop() }
        let page = try await harness.browser.get("/products?sort=name")
        #expect(Self.ids(page).count == 2)
        // Stop the sandbox: the copy stays, with its age and a warning; the retry waits.
        await harness.sandbox?.shutdown()
        harness.clock.advance(120)
        let stale = try await harness.browser.get("/products?sort=name")
        #expect(stale.status == 200)
        #expect(Self.ids(stale).count == 2)
        #expect(stale.text.contains("data-copy-warning"))
        #expect(stale.text.contains("role=\"alert\""))
        #expect(stale.text.contains("2 min ago"))
        #expect(stale.text.contains("next try in 2 s"))
        #expect(await harness.panel.app.upstream.catalog.status.failure != nil)
    }

    @Test func csvExportHasTheBOMHeaderAndEveryProductOfTheView() async throws {
        let harness = try await PanelHarness.start(.init(seed: 30))
        Teardown.add { await harness.stop() }
        let formula = try await Self.make(harness, "=HYPERLINK(\"x\") 키보드", price: 12.5, discount: 2.5, stock: 0, currency: .USD)
        let csv = try await harness.browser.get("/products/export.csv?sort=oldest&per_page=20&page=1")
        #expect(csv.status == 200)
        #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
        #expect(Array(csv.body.prefix(3)) == [0xEF, 0xBB, 0xBF])
        let lines = String(decoding: csv.body.dropFirst(3), as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.first == CatalogCSV.header)
        #expect(lines.count == 1 + 31 + 1)  // header, every product (not one page), the final empty line
        #expect(lines[31].hasPrefix("\(formula.id),\"'=HYPERLINK(\"\"x\"\") 키보드\",\(formula.vendorID),USD,12.50,2.50,10.00,0,"))
        let filtered = try await harness.browser.get("/products/export.csv?stock=sold-out&currency=USD")
        let rows = String(decoding: filtered.body.dropFirst(3), as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let shown = Self.ids(try await harness.browser.get("/products?stock=sold-out&currency=USD&per_page=100"))
        #expect(rows.count == 1 + shown.count && shown.contains(formula.id))
        #expect(rows.dropFirst().compactMap { Int($0.prefix { $0.isNumber }) } == shown)
        let list = try await harness.browser.get("/products?stock=sold-out&currency=USD")
        #expect(list.text.contains("href=\"/products/export.csv?view=list&amp;stock=sold-out&amp;currency=USD\""))
    }

    @Test func newProductsNoticeAppearsWithoutAndWithJavaScript() async throws {
        let harness = try await PanelHarness.start(.init(seed: 2))
        Teardown.add { await harness.stop() }
        let first = try await harness.browser.get("/products")
        #expect(!first.text.contains("data-new-products"))
        let known = try #require(first.text.components(separatedBy: "data-newest-id=\"").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) })
        let before = try await harness.browser.get("/products/newest.json")
        #expect(before.header("Content-Type") == "application/json")
        #expect(String(decoding: before.body, as: UTF8.self) == "{\"newest_id\":\(known)}")

        let added = try await Self.make(harness, "Brand new")
        // The script's poll sees it (the answer is shared for up to 5 s; poll until it changes).
        var polled = ""
        _ = try await eventually {
            polled = String(decoding: try await harness.browser.get("/products/newest.json").body, as: UTF8.self)
            return polled.contains("\(added.id)")
        }
        #expect(polled == "{\"newest_id\":\(added.id)}")
        // Without JS, the next load of any list page shows the notice, linking to the newest.
        harness.clock.advance(61)
        let filtered = try await harness.browser.get("/products?sort=name&view=grid")
        #expect(filtered.text.contains("data-new-products role=\"status\""))
        #expect(filtered.text.contains("href=\"/products?page=1&amp;view=grid\">Show the newest products"))
        // Seeing the newest products first clears it.
        _ = try await harness.browser.get("/products?view=grid")
        let again = try await harness.browser.get("/products?sort=name")
        #expect(!again.text.contains("data-new-products"))
    }
}
