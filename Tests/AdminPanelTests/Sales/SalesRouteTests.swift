import Foundation
import OpenMarketCore
import Testing
import TestSupport
@testable import AdminPanel

/// Scheduled discounts through the panel's pages, against the real sandbox: the detail form and
/// its 422s, `/sales`, cancel, the bulk action, the list's badges, v1. The panel's clock is the
/// harness's manual one; moving it and waking the scheduler stands in for waiting.
@Suite(.awaitsTeardown) struct SalesRouteTests {
    static func time(_ harness: PanelHarness, _ offset: TimeInterval) -> String {
        SaleRules.localTimeText(harness.clock.now + offset, zone: harness.panelConfiguration.timeZone)
    }

    static func schedule(_ harness: PanelHarness, product: Int, discount: String, from start: TimeInterval,
                         to end: TimeInterval, token: String? = nil) async throws -> RawResponse {
        let csrf: String
        if let token { csrf = token } else { csrf = try await harness.csrfToken(from: "/products/\(product)") }
        return try await harness.browser.post("/products/\(product)/sales", form: [
            ("csrf_token", csrf), ("sale_discount", discount),
            ("sale_start", time(harness, start)), ("sale_end", time(harness, end)),
        ])
    }

    /// Moves the panel's clock and wakes its scheduler (it compares due times with this clock).
    static func advance(_ harness: PanelHarness, _ seconds: TimeInterval) async {
        harness.clock.advance(seconds)
        await harness.panel.app.saleScheduler.wake()
    }

    /// `eventually`, failing the test after 30 s.
    static func poll(_ what: String, _ condition: () async throws -> Bool) async throws {
        guard try await eventually(seconds: 30, condition) else { throw TestClientFailure(description: "\(what): not seen in 30 s") }
    }

    @Test func aSaleSetOnTheDetailPageStartsAndEndsOnTheSandbox() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct(name: "Wool scarf")
        let form = try await harness.browser.get("/products/\(product.id)")
        #expect(form.text.contains("data-product-sales"))
        #expect(form.text.contains("name=\"sale_start\" value=\"\" step=\"1\"") && form.text.contains("type=\"datetime-local\""))
        #expect(form.text.contains(harness.panelConfiguration.timeZone.identifier))

        let created = try await Self.schedule(harness, product: product.id, discount: "10%", from: 60, to: 120)
        #expect(created.status == 303)
        #expect(created.header("Location") == "/products/\(product.id)")
        let detail = try await harness.browser.get("/products/\(product.id)")
        #expect(detail.text.contains("data-state=\"scheduled\""))
        #expect(try await harness.browser.get("/products?view=grid").text.contains("data-sale-badge=\"scheduled\""))

        await Self.advance(harness, 60)
        try await Self.poll("the start") { try await harness.api.product(id: product.id).discountedPrice == 1_200 }
        try await Self.poll("running on /sales") { try await harness.browser.get("/sales").text.contains("data-state=\"running\"") }
        #expect(try await harness.browser.get("/products").text.contains("data-sale-badge=\"running\""))

        await Self.advance(harness, 60)
        try await Self.poll("the end") { try await harness.api.product(id: product.id).discountedPrice == 0 }
        try await Self.poll("ended on /sales") { try await harness.browser.get("/sales").text.contains("data-state=\"ended\"") }
        let history = try await harness.browser.get("/products/\(product.id)").text
        #expect(history.contains("data-action=\"sale-start\"") && history.contains("data-action=\"sale-end\""))
        #expect(!(try await harness.browser.get("/products").text.contains("data-sale-badge")))
    }

    @Test func badInputIsRefusedByItsFieldWith422() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()   // ₩12,000
        let token = try await harness.csrfToken(from: "/products/\(product.id)")
        let cases: [(discount: String, start: TimeInterval, end: TimeInterval, field: String)] = [
            ("abc", 60, 120, "sale_discount"),
            ("100.5", 60, 120, "sale_discount"),      // won are whole
            ("12,001", 60, 120, "sale_discount"),     // more than the price
            ("101%", 60, 120, "sale_discount"),
            ("10%", 120, 60, "sale_end"),             // the end before the start
            ("10%", -120, -60, "sale_end"),           // already over
            ("10%", 0, 25 * 366 * 86_400, "sale_end"), // a century is a typo
        ]
        for bad in cases {
            let response = try await Self.schedule(harness, product: product.id, discount: bad.discount, from: bad.start, to: bad.end,
                                                   token: token)
            #expect(response.status == 422, "\(bad)")
            #expect(response.text.contains("id=\"\(bad.field)-error\""), "\(bad)")
            #expect(response.text.contains("aria-describedby=\"") && response.text.contains("\(bad.field)-error\" aria-invalid=\"true\""),
                    "\(bad)")
            #expect(response.text.contains("value=\"\(bad.discount)\""), "kept \(bad)")
        }
        let empty = try await harness.browser.post("/products/\(product.id)/sales", form: [("csrf_token", token)])
        #expect(empty.status == 422)
        #expect(empty.count(of: "class=\"field-error\"") == 3)
        let forged = try await harness.browser.post("/products/\(product.id)/sales",
                                                    form: [("csrf_token", "forged"), ("sale_discount", "10%")])
        #expect(forged.status == 403)
        #expect(try await harness.panel.app.stores.sales.list(.init()).isEmpty)

        // Amounts as typed, and a ten-year sale.
        #expect(try await Self.schedule(harness, product: product.id, discount: "₩1,000", from: 60, to: 120, token: token).status == 303)
        let overlap = try await Self.schedule(harness, product: product.id, discount: "5%", from: 90, to: 200, token: token)
        #expect(overlap.status == 422 && overlap.text.contains("id=\"sale_start-error\""))
        let touching = try await Self.schedule(harness, product: product.id, discount: "10%", from: 120, to: 120 + 3_653 * 86_400,
                                               token: token)
        #expect(touching.status == 303)
        let sales = try await harness.browser.get("/sales?product=\(product.id)").text
        #expect(sales.contains("for 10 years"))
        #expect(sales.contains("₩1,000 off"))
    }

    @Test func timesRoundTripToTheMinuteAndSecondsAreStillTaken() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()
        let token = try await harness.csrfToken(from: "/products/\(product.id)")
        // Refused for its discount: the times come back at whole minutes without their seconds, as typed otherwise.
        let refused = try await harness.browser.post("/products/\(product.id)/sales", form: [
            ("csrf_token", token), ("sale_discount", "abc"), ("sale_start", "2031-06-01T10:00:00"), ("sale_end", "2031-06-01T18:30:15"),
        ])
        #expect(refused.status == 422)
        #expect(refused.text.contains("name=\"sale_start\" value=\"2031-06-01T10:00\" step=\"1\""))
        #expect(refused.text.contains("name=\"sale_end\" value=\"2031-06-01T18:30:15\" step=\"1\""))
        // The kept values are accepted as they are, seconds and all.
        for (start, end) in [("2031-06-01T10:00", "2031-06-01T18:30:15"), ("2031-06-02T10:00:00", "2031-06-02T18:00")] {
            let stored = try await harness.browser.post("/products/\(product.id)/sales", form: [
                ("csrf_token", token), ("sale_discount", "10%"), ("sale_start", start), ("sale_end", end),
            ])
            #expect(stored.status == 303, "\(start) – \(end)")
        }
        let ends = try await harness.panel.app.stores.sales.list(.init(productID: product.id)).map {
            SaleRules.localTimeText($0.end, zone: harness.panelConfiguration.timeZone)
        }
        #expect(Set(ends) == ["2031-06-01T18:30:15", "2031-06-02T18:00:00"])
    }

    @Test func cancellingEndsARunningSaleAtOnceAndAnUpcomingOneQuietly() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let running = try await harness.makeProduct(name: "Tea cup")
        let upcoming = try await harness.makeProduct(name: "Tea pot")
        #expect(try await Self.schedule(harness, product: running.id, discount: "3,000", from: 0, to: 600).status == 303)
        #expect(try await Self.schedule(harness, product: upcoming.id, discount: "3,000", from: 300, to: 600).status == 303)
        try await Self.poll("the start") { try await harness.api.product(id: running.id).discountedPrice == 3_000 }
        let sales = try await harness.panel.app.stores.sales.list(.init())
        let token = try await harness.csrfToken(from: "/sales")
        for sale in sales {
            let cancelled = try await harness.browser.post("/sales/\(sale.id)/cancel", form: [("csrf_token", token), ("back", "/sales")])
            #expect(cancelled.status == 303 && cancelled.header("Location") == "/sales")
        }
        #expect(try await harness.api.product(id: running.id).discountedPrice == 0)
        let page = try await harness.browser.get("/sales?state=cancelled")
        #expect(page.count(of: "data-state=\"cancelled\"") == 2)
        let activity = try await harness.browser.get("/activity")
        #expect(activity.count(of: "data-action=\"sale-cancelled\"") == 2)
        let again = try await harness.browser.post("/sales/\(sales[0].id)/cancel", form: [("csrf_token", token)])
        #expect(again.status == 303)
        #expect(try await harness.browser.post("/sales/99999/cancel", form: [("csrf_token", token)]).status == 404)
    }

    @Test func theBulkActionSchedulesEachProductOnItsOwn() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        var ids: [Int] = []
        for n in 1...3 { ids.append(try await harness.makeProduct(name: "Mug \(n)").id) }
        #expect(try await Self.schedule(harness, product: ids[2], discount: "10%", from: 100, to: 200).status == 303)
        let list = try await harness.browser.get("/products")
        #expect(list.text.contains("<option value=\"schedule-discount\">"))
        #expect(list.text.contains("name=\"sale_discount\""))
        let token = try #require(list.inputValue("csrf_token"))
        let fields: [(String, String)] = [("csrf_token", token), ("action", "schedule-discount"), ("sale_discount", "10%"),
                                          ("sale_start", Self.time(harness, 60)), ("sale_end", Self.time(harness, 7_200))]
        let result = try await harness.browser.post("/products/bulk", form: fields + ids.map { ("ids", String($0)) })
        #expect(result.status == 200)
        #expect(result.count(of: "data-outcome=\"done\"") == 2)
        #expect(result.text.contains("data-bulk-result=\"\(ids[2])\" data-outcome=\"failed\""))   // overlaps its own sale
        #expect(try await harness.panel.app.stores.sales.list(.init()).count == 3)

        var badPeriod = fields
        badPeriod[4] = ("sale_end", Self.time(harness, 30))
        let refused = try await harness.browser.post("/products/bulk", form: badPeriod + [("ids", String(ids[0]))])
        #expect(refused.status == 422)
        #expect(refused.text.contains("role=\"alert\""))
        #expect(try await harness.panel.app.stores.sales.list(.init()).count == 3)
    }

    @Test func anUnreachableAPIIsRetriedAndEachTryIsShown() async throws {
        let harness = try await PanelHarness.start(.init(live: true))
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()
        #expect(try await Self.schedule(harness, product: product.id, discount: "10%", from: 60, to: 3_600).status == 303)
        await harness.sandbox?.shutdown()   // the API goes down before the start
        await Self.advance(harness, 60)
        try await Self.poll("a failed try") { try await harness.browser.get("/sales").text.contains("data-tries=\"1\"") }
        await Self.advance(harness, 1)
        try await Self.poll("a second try") { try await harness.browser.get("/sales").text.contains("data-tries=\"2\"") }
        let page = try await harness.browser.get("/sales").text
        #expect(page.contains("data-state=\"scheduled\""))
        #expect(page.contains("data-sale-note>Try 2 failed"))
        #expect(page.contains("Next try:"))
        #expect(page.components(separatedBy: "data-sale-try").count - 1 == 2)
    }

    @Test func viewersSeeSalesButNoFormNoCancelAndGet403() async throws {
        let harness = try await PanelHarness.start(PanelHarness.Options(signIn: true))
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner()
        let product = try await harness.makeProduct()
        #expect(try await Self.schedule(harness, product: product.id, discount: "10%", from: 600, to: 1_200).status == 303)
        let owner = try await harness.browser.get("/sales")
        #expect(owner.text.contains("/cancel\""))
        let viewer = harness.newBrowser()
        try await harness.accept(try await harness.invite("viewer1", role: "viewer"), password: "viewer-password-1", in: viewer)
        let sales = try await viewer.get("/sales")
        #expect(sales.status == 200 && sales.text.contains("data-state=\"scheduled\""))
        #expect(!sales.text.contains("/cancel\""))
        let detail = try await viewer.get("/products/\(product.id)")
        #expect(detail.text.contains("data-product-sales") && !detail.text.contains("name=\"sale_discount\""))
        let token = try #require(sales.inputValue("csrf_token"))
        let sale = try #require(try await harness.panel.app.stores.sales.list(.init()).first)
        #expect(try await viewer.post("/sales/\(sale.id)/cancel", form: [("csrf_token", token)]).status == 403)
        #expect(try await viewer.post("/products/\(product.id)/sales", form: [("csrf_token", token), ("sale_discount", "5%")]).status == 403)
        #expect(try await harness.panel.app.stores.sales.sale(sale.id)?.state == .scheduled)
    }

    @Test func v1OffersNoScheduledDiscountsAndSaysWhy() async throws {
        let harness = try await PanelHarness.start(PanelHarness.Options(dialect: .v1))
        Teardown.add { await harness.stop() }
        let page = try await harness.browser.get("/sales")
        #expect(page.status == 200)
        #expect(page.text.contains("data-sales-unavailable") && page.text.contains("product passwords"))
        let token = try await harness.csrfToken(from: "/products/new")
        let refused = try await harness.browser.post("/products/1/sales", form: [("csrf_token", token), ("sale_discount", "10%")])
        #expect(refused.status == 403)
        #expect(refused.text.contains("product passwords"))
        #expect(!(try await harness.browser.get("/products").text.contains("schedule-discount")))
        let id = try V1PanelTests.registeredID(try await V1PanelTests.register(harness))
        let detail = try await harness.browser.get("/products/\(id)")
        #expect(detail.text.contains("data-product-sales") && detail.text.contains("data-sales-unavailable"))
        #expect(!detail.text.contains("name=\"sale_discount\""))
    }
}
