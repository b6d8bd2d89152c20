import Foundation
import OpenMarketCore
import Testing
import TestSupport
@testable import AdminPanel

/// A bulk 즉시할인 is one run: its activity rows are grouped as one, `/sales` and the run's group
/// on `/activity` offer "cancel all" (`POST /sales/runs/{run}/cancel`), which cancels each sale as
/// its own 취소 would, skips and counts the ones already over, and is recorded.
@Suite(.awaitsTeardown) struct SaleRunRouteTests {
    static let korean = [("Accept-Language", "ko")]

    /// Books `discount` from `start` to `end` seconds from the panel's now on `ids` through the list's bulk bar.
    static func bookTogether(_ harness: PanelHarness, _ ids: [Int], from start: TimeInterval, to end: TimeInterval,
                             browser: TestBrowser? = nil) async throws -> RawResponse {
        let browser = browser ?? harness.browser
        let token = try #require(try await browser.get("/products").inputValue("csrf_token"))
        return try await browser.post("/products/bulk", form: [
            ("csrf_token", token), ("action", "schedule-discount"), ("sale_discount", "10%"),
            ("sale_start", SalesRouteTests.time(harness, start)), ("sale_end", SalesRouteTests.time(harness, end)),
        ] + ids.map { ("ids", String($0)) })
    }

    static func run(of productID: Int, _ harness: PanelHarness) async throws -> String {
        let sale = try #require(try await harness.panel.app.stores.sales.list(.init(productID: productID)).first)
        return try #require(sale.runID)
    }

    @Test func aBulkBookingIsOneRunAndCancelAllCountsWhatItSkipped() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        var ids: [Int] = []
        for n in 1...4 { ids.append(try await harness.makeProduct(name: "Bowl \(n)").id) }   // ₩12,000 each
        let booked = try await Self.bookTogether(harness, ids, from: 60, to: 7_200)
        #expect(booked.status == 200 && booked.count(of: "data-outcome=\"done\"") == 4)
        let run = try await Self.run(of: ids[0], harness)
        for id in ids { #expect(try await Self.run(of: id, harness) == run) }

        // One run on /activity, fully Korean in Korean, offering "cancel all" for its 4 sales.
        let activity = try await harness.browser.get("/activity", headers: Self.korean)
        #expect(activity.count(of: "data-bulk-run=\"\(run)\"") == 1)
        #expect(activity.count(of: "data-action=\"bulk\"") == 4)
        #expect(activity.text.contains("즉시할인 일괄 예약 (상품 4개)"))
        #expect(activity.text.contains("즉시할인 예약 완료 — 10% 할인"))
        #expect(!activity.text.contains("schedule-discount") && !activity.text.contains("Scheduled"))
        #expect(activity.text.contains("data-cancel-run=\"\(run)\" data-open=\"4\""))
        #expect(activity.text.contains("이 예약 4건 모두 취소"))
        #expect(!activity.text.contains("/activity/bulk/\(run)/revert"))   // nothing to revert: the cancel is the undo

        // Mixed states: one cancelled on its own, one over (ended), two running.
        let sales = try await harness.panel.app.stores.sales.list(.init(runID: run))
        let byProduct = Dictionary(uniqueKeysWithValues: sales.map { ($0.productID, $0.id) })
        let token = try await harness.csrfToken(from: "/sales")
        #expect(try await harness.browser.post("/sales/\(byProduct[ids[3]]!)/cancel", form: [("csrf_token", token)]).status == 303)
        #expect(try await harness.panel.app.stores.sales.close(byProduct[ids[2]]!, as: .ended, note: SaleNote(key: "sales_note_missed"),
                                                         at: harness.clock.now))
        await SalesRouteTests.advance(harness, 60)
        for id in ids[0...1] {
            try await SalesRouteTests.poll("the start of \(id)") { try await harness.api.product(id: id).discountedPrice == 1_200 }
        }
        try await SalesRouteTests.poll("two running") {
            try await harness.panel.app.stores.sales.list(.init(state: .running, runID: run)).count == 2
        }
        let page = try await harness.browser.get("/sales")
        #expect(page.text.contains("data-sale-run=\"\(run)\" data-open=\"2\""))
        #expect(page.text.contains("action=\"/sales/runs/\(run)/cancel\""))
        #expect(page.count(of: "data-sale-run-link") == 4)

        let cancelled = try await harness.browser.post("/sales/runs/\(run)/cancel", form: [("csrf_token", token), ("back", "/sales")],
                                                       headers: Self.korean)
        #expect(cancelled.status == 303 && cancelled.header("Location") == "/sales")
        let after = try await harness.browser.get("/sales", headers: Self.korean)
        #expect(after.text.contains("일괄 예약한 즉시할인 4건 중 2건을 취소했습니다. 이미 끝났거나 취소된 2건은 건너뛰었습니다."))
        // Running sales were cancelled as a single cancel does: the earlier discount is back.
        for id in ids[0...1] { #expect(try await harness.api.product(id: id).discountedPrice == 0) }
        let states = try await harness.panel.app.stores.sales.list(.init(runID: run)).map(\.state)
        #expect(states.filter { $0 == .cancelled }.count == 3 && states.filter { $0 == .ended }.count == 1)
        #expect(!after.text.contains("data-cancel-run"))   // nothing left to cancel

        let log = try await harness.browser.get("/activity", headers: Self.korean)
        #expect(log.count(of: "data-action=\"sale-run-cancelled\"") == 1)
        #expect(log.count(of: "data-action=\"sale-cancelled\"") == 3)   // one single cancel, two by the run
        #expect(log.text.contains("일괄 예약한 즉시할인 4건 모두 취소: 2건을 취소했습니다. 이미 끝났거나 취소된 2건은 건너뛰었습니다."))
        #expect(log.text.contains("할인 일괄 취소"))
        let english = try await harness.browser.get("/activity")
        #expect(english.text.contains("All 4 discounts of a bulk booking cancelled: 2 cancelled. 2 had already ended or been cancelled"))

        // Again: everything is skipped, and still recorded.
        let again = try await harness.browser.post("/sales/runs/\(run)/cancel", form: [("csrf_token", token), ("back", "/activity")])
        #expect(again.status == 303 && again.header("Location") == "/activity")
        #expect(try await harness.browser.get("/activity").text.contains("Cancelled 0 of the 4 discounts booked together."))
        #expect(try await harness.browser.get("/activity").count(of: "data-action=\"sale-run-cancelled\"") == 2)

        #expect(try await harness.browser.post("/sales/runs/nosuchrun/cancel", form: [("csrf_token", token)]).status == 404)
        #expect(try await harness.browser.post("/sales/runs/bad%20run/cancel", form: [("csrf_token", token)]).status == 404)
    }

    @Test func upcomingSalesOfARunAreCancelledBeforeTheyStart() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let ids = [try await harness.makeProduct(name: "Cup 1").id, try await harness.makeProduct(name: "Cup 2").id]
        #expect(try await Self.bookTogether(harness, ids, from: 600, to: 1_200).status == 200)
        let run = try await Self.run(of: ids[0], harness)
        let token = try await harness.csrfToken(from: "/sales?run=\(run)")
        let filtered = try await harness.browser.get("/sales?run=\(run)")
        #expect(filtered.count(of: "data-sale=\"") == 2 && filtered.text.contains("name=\"run\" value=\"\(run)\""))
        let cancelled = try await harness.browser.post("/sales/runs/\(run)/cancel", form: [("csrf_token", token), ("back", "//evil.example")])
        #expect(cancelled.status == 303 && cancelled.header("Location") == "/sales")
        #expect(try await harness.browser.get("/sales").text.contains("Cancelled 2 of the 2 discounts booked together."))
        #expect(try await harness.panel.app.stores.sales.list(.init(runID: run)).allSatisfy { $0.state == .cancelled })
        let log = try await harness.browser.get("/activity")
        #expect(log.count(of: "data-action=\"sale-cancelled\"") == 2 && log.count(of: "data-action=\"sale-run-cancelled\"") == 1)
        // Nothing reached the products.
        for id in ids { #expect(try await harness.api.product(id: id).discountedPrice == 0) }
    }

    @Test func runningSalesWhoseCancelWaitsForTheAPIAreCountedApart() async throws {
        let harness = try await PanelHarness.start(.init(live: true))
        Teardown.add { await harness.stop() }
        let ids = [try await harness.makeProduct(name: "Jar 1").id, try await harness.makeProduct(name: "Jar 2").id]
        #expect(try await Self.bookTogether(harness, ids, from: 0, to: 3_600).status == 200)
        for id in ids { try await SalesRouteTests.poll("the start of \(id)") { try await harness.api.product(id: id).discountedPrice == 1_200 } }
        let run = try await Self.run(of: ids[0], harness)
        let token = try await harness.csrfToken(from: "/sales")
        await harness.sandbox?.shutdown()   // the API goes down: each cancel is recorded and retried
        let cancelled = try await harness.browser.post("/sales/runs/\(run)/cancel", form: [("csrf_token", token)])
        #expect(cancelled.status == 303 && cancelled.header("Location") == "/sales?run=\(run)")
        let page = try await harness.browser.get("/sales?run=\(run)").text
        #expect(page.contains("Cancelled 0 of the 2 discounts booked together. 2 still being cancelled"))
        // Still running, each failed try shown, as after a single cancel.
        #expect(page.components(separatedBy: "data-state=\"running\" data-tries=\"").count - 1 == 2)
        #expect(!page.contains("data-tries=\"0\""))
        #expect(try await harness.browser.get("/activity").text.contains("2 still being cancelled"))
    }

    @Test func viewersAndRequestsWithoutTheFormTokenAreRefused() async throws {
        let harness = try await PanelHarness.start(PanelHarness.Options(signIn: true))
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner()
        let ids = [try await harness.makeProduct(name: "Plate 1").id, try await harness.makeProduct(name: "Plate 2").id]
        #expect(try await Self.bookTogether(harness, ids, from: 600, to: 1_200).status == 200)
        let run = try await Self.run(of: ids[0], harness)
        #expect(try await harness.browser.get("/sales").text.contains("data-cancel-run=\"\(run)\""))

        let viewer = harness.newBrowser()
        try await harness.accept(try await harness.invite("viewer1", role: "viewer"), password: "viewer-password-1", in: viewer)
        let seen = try await viewer.get("/sales")
        #expect(seen.text.contains("data-sale-run=\"\(run)\"") && !seen.text.contains("data-cancel-run"))
        #expect(!(try await viewer.get("/activity").text.contains("data-cancel-run")))
        let viewerToken = try #require(seen.inputValue("csrf_token"))
        #expect(try await viewer.post("/sales/runs/\(run)/cancel", form: [("csrf_token", viewerToken)]).status == 403)

        #expect(try await harness.browser.post("/sales/runs/\(run)/cancel", form: [("back", "/sales")]).status == 403)
        #expect(try await harness.browser.post("/sales/runs/\(run)/cancel", form: [("csrf_token", "forged")]).status == 403)
        #expect(try await harness.panel.app.stores.sales.list(.init(runID: run)).allSatisfy { $0.state == .scheduled })
        #expect(!(try await harness.browser.get("/activity").text.contains("data-action=\"sale-run-cancelled\"")))
    }
}
