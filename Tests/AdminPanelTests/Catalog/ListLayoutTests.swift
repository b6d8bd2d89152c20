import Foundation
import Testing
import TestSupport
@testable import AdminPanel
import TestSupport

/// The list page's work-saving parts: active filters as removable chips, an empty
/// result that says what emptied it, and a refused bulk request that keeps the seller's work.
@Suite(.awaitsTeardown) struct ListLayoutTests {
    @Test func activeFiltersShowAsChipsThatRemoveOneFilterEach() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        try await CatalogRouteTests.make(harness, "Chip mug", discount: 1000, stock: 0)
        let page = try await harness.browser.get("/products?q=mug&stock=sold-out&discounted=1&sort=name&lang=en")
        let chips = page.text.components(separatedBy: "data-filter-chip href=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(chips.count == 3)   // the words, the stock, the discount (a sort is not a filter)
        // Each link drops its own filter and keeps the others and the sort.
        #expect(chips.contains { !$0.contains("q=") && $0.contains("stock=sold-out") && $0.contains("discounted=1") && $0.contains("sort=name") })
        #expect(chips.contains { $0.contains("q=mug") && !$0.contains("stock=") && $0.contains("discounted=1") })
        #expect(chips.contains { $0.contains("q=mug") && $0.contains("stock=sold-out") && !$0.contains("discounted") })
        #expect(page.text.contains("aria-live=\"polite\""))
        let plain = try await harness.browser.get("/products?sort=name")
        #expect(!plain.text.contains("data-filter-chip"))
    }

    @Test func anEmptyResultSaysWhetherTheWordsOrTheFiltersEmptiedIt() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        try await CatalogRouteTests.make(harness, "Hidden lamp", stock: 4)
        let hidden = try await harness.browser.get("/products?q=lamp&stock=sold-out&lang=en")
        #expect(hidden.text.contains("The filters hide the product matching “lamp”"))
        #expect(hidden.text.contains("href=\"/products?page=1&amp;view=list&amp;q=lamp\""))
        let words = try await harness.browser.get("/products?q=zebra&stock=sold-out&lang=en")
        #expect(words.text.contains("No products match “zebra”"))
        #expect(words.text.contains("href=\"/products?page=1&amp;view=list&amp;stock=sold-out\""))
    }

    @Test func aRefusedBulkRequestKeepsTheTicksTheActionAndTheValues() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        var ids: [Int] = []
        for n in 0..<3 { ids.append(try await CatalogRouteTests.make(harness, "Kept \(n)").id) }
        let list = try await harness.browser.get("/products?sort=oldest")
        let token = try #require(list.inputValue("csrf_token"))
        let refused = try await harness.browser.post("/products/bulk", form: [
            ("csrf_token", token), ("action", "adjust-price"), ("amount", "lots"), ("password", "never-echoed"),
            ("back", "/products?sort=oldest"), ("ids", String(ids[0])), ("ids", String(ids[2])),
        ])
        #expect(refused.status == 422)
        #expect(refused.text.contains("role=\"alert\" data-bulk-refusal>"))
        #expect(!refused.text.contains("flash--success"))
        for id in ids {
            let parts = refused.text.components(separatedBy: "name=\"ids\" value=\"\(id)\"")
            let tag = parts.count > 1 ? parts[1].prefix { $0 != ">" } : ""
            let ticked = tag.hasSuffix(" checked")
            #expect(ticked == (id != ids[1]), "product \(id)")
        }
        #expect(refused.text.contains("<option value=\"adjust-price\" selected>"))
        #expect(refused.text.contains("value=\"lots\""))
        #expect(!refused.text.contains("never-echoed"))
        // The same list it came from (its sort), and nothing changed upstream.
        #expect(CatalogRouteTests.ids(refused) == ids)
        for id in ids { #expect(try await harness.api.product(id: id).price == 12000) }
    }
}
