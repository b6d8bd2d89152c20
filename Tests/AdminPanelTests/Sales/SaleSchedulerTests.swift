import Foundation
import TestSupport
import Synchronization
import OpenMarketCore
import SQLiteStore
import Testing
@testable import AdminPanel

/// The API as the scheduler sees it, in memory: products, every write, failures on demand, and
/// a "crash" (a call that never returns) before or after a write reaches the product.
final class FakeSaleAPI: SaleProductAPI, @unchecked Sendable {
    enum Hang { case none, beforeWrite, afterWrite }

    private let lock = NSLock()
    private var products: [Int: ProductDetail] = [:]
    private var failures: [OpenMarketError] = []
    private var hang = Hang.none
    private(set) var writes: [(id: Int, discount: Double)] = []
    private var current = 0
    private(set) var peak = 0
    /// Every write fails as if the API were down (reads still work).
    var failWrites = false
    /// Each write takes this long (to see concurrency).
    var writeDelay: UInt64 = 0

    func add(_ id: Int, price: Double, currency: Currency = .KRW, discount: Double = 0) {
        lock.withLock {
            products[id] = ProductDetail(id: id, vendorID: 1, name: "Product \(id)", description: "A test product.", thumbnail: "",
                                         currency: currency, price: price, bargainPrice: price - discount, discountedPrice: discount,
                                         stock: 1, createdAt: Date(), issuedAt: Date(), images: [])
        }
    }

    func discount(_ id: Int) -> Double? { lock.withLock { products[id]?.discountedPrice } }
    func setExternally(_ id: Int, discount: Double) { lock.withLock { products[id]?.discountedPrice = discount } }
    func remove(_ id: Int) { _ = lock.withLock { products.removeValue(forKey: id) } }
    func fail(_ errors: OpenMarketError...) { lock.withLock { failures += errors } }
    func hang(_ mode: Hang) { lock.withLock { hang = mode } }
    var writeCount: Int { lock.withLock { writes.count } }

    func product(id: Int) async throws(OpenMarketError) -> ProductDetail {
        try read(id)
    }

    private func read(_ id: Int) throws(OpenMarketError) -> ProductDetail {
        lock.lock()
        defer { lock.unlock() }
        if !failures.isEmpty { throw failures.removeFirst() }
        guard let product = products[id] else { throw .notFound(message: "no product \(id)") }
        return product
    }

    func setDiscount(_ amount: Double, productID: Int) async throws(OpenMarketError) -> ProductDetail {
        let mode = lock.withLock { () -> Hang in
            current += 1
            peak = max(peak, current)
            return hang
        }
        defer { lock.withLock { current -= 1 } }
        if mode == .beforeWrite { await Self.never() }
        if failWrites { throw .unreachable(reason: "connection refused") }
        if writeDelay > 0 { try? await Task.sleep(nanoseconds: writeDelay) }
        let result = try write(amount, productID)
        if mode == .afterWrite { await Self.never() }
        return result
    }

    private func write(_ amount: Double, _ productID: Int) throws(OpenMarketError) -> ProductDetail {
        lock.lock()
        defer { lock.unlock() }
        if !failures.isEmpty { throw failures.removeFirst() }
        guard var product = products[productID] else { throw .notFound(message: "no product \(productID)") }
        guard amount <= product.price else { throw .validation([FieldIssue(field: "discounted_price", message: "over price")]) }
        product.discountedPrice = amount
        products[productID] = product
        writes.append((productID, amount))
        return product
    }

    /// A call cut off by a crash: it never returns (the test abandons the scheduler). The
    /// continuations are kept, never resumed, so the runtime does not report them as leaked.
    static func never() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            abandoned.withLock { $0.append(continuation) }
        }
    }

    private static let abandoned = Mutex<[CheckedContinuation<Void, Never>]>([])
}

/// The scheduler with an injectable clock: due times, restarts, crashes between record and call,
/// clock jumps, overlaps, retries, cancels, and a thousand sales due at once.
@Suite struct SaleSchedulerTests {
    struct Setup {
        let directory: URL
        let database: PanelDatabase
        let store: SaleStore
        let api = FakeSaleAPI()
        let clock = ManualClock()

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("sales-test-\(UUID().uuidString)")
            database = try PanelDatabase(directory: directory)
            store = try SaleStore(database: database)
        }

        var t0: Date { Date(timeIntervalSince1970: 1_700_000_000) }

        /// A scheduler as a (re)started panel makes it: its boot time is the clock's now.
        func scheduler(_ api: FakeSaleAPI? = nil) -> SaleScheduler {
            SaleScheduler(store: store, api: api ?? self.api, now: clock.function)
        }

        @discardableResult
        func sale(_ product: Int, _ discount: SaleDiscount, from start: TimeInterval, to end: TimeInterval,
                  currency: Currency = .KRW) async throws -> Int {
            let result = try await store.create(.init(productID: product, productName: "Product \(product)", currency: currency,
                                                      discount: discount, start: t0 + start, end: t0 + end,
                                                      createdBy: "kim", createdAt: clock.now))
            guard case .created(let id) = result else { throw TestClientFailure(description: "not created: \(result)") }
            return id
        }

        /// The activity rows of one action, read straight from the tables the scheduler writes
        /// (the log's own reader may join tables other features add to a full panel's database).
        func rows(_ action: String) async throws -> [ActivityRecord] {
            try await database.reader.perform { connection in
                var records: [ActivityRecord] = []
                try connection.query("SELECT id, at, person, address, product_id, detail FROM activity WHERE action = ? ORDER BY id",
                                     [.text(action)]) { row in
                    records.append(ActivityRecord(id: row.int(0), time: Date(timeIntervalSince1970: row.double(1)),
                                                  entry: ActivityEntry(person: row.string(2), address: row.string(3), action: action,
                                                                       productID: row.isNull(4) ? nil : row.int(4),
                                                                       detail: row.isNull(5) ? nil : row.string(5))))
                }
                for index in records.indices {
                    try connection.query("SELECT field, old, new FROM activity_changes WHERE activity_id = ? ORDER BY position",
                                         [.integer(records[index].id)]) { row in
                        records[index].entry.changes.append(.init(field: row.string(0), old: row.string(1), new: row.string(2)))
                    }
                }
                return records
            }
        }

        func cleanUp() { try? FileManager.default.removeItem(at: directory) }
    }

    @Test func startsAndEndsAtTheirTimesExactlyOnce() async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        s.api.add(1, price: 12_345, discount: 500)
        let id = try await s.sale(1, .percent(10), from: 100, to: 200)
        let scheduler = s.scheduler()

        #expect(await scheduler.pass() == s.t0 + 100)
        #expect(s.api.writeCount == 0)
        s.clock.advance(99.9)
        #expect(await scheduler.pass() == s.t0 + 100)
        #expect(s.api.writeCount == 0)

        s.clock.advance(0.1)
        #expect(await scheduler.pass() == s.t0 + 200)
        #expect(s.api.discount(1) == 1_235)   // 10 % of 12,345 = 1,234.5, rounded to whole won
        let running = try #require(try await s.store.sale(id))
        #expect(running.state == .running && running.earlierDiscount == 500 && running.appliedDiscount == 1_235)
        #expect(try await s.rows("sale-start").count == 1)
        await scheduler.pass()
        #expect(s.api.writeCount == 1)

        s.clock.advance(100)
        #expect(await scheduler.pass() == nil)
        #expect(s.api.discount(1) == 500)
        #expect(try await s.store.sale(id)?.state == .ended)
        let ends = try await s.rows("sale-end")
        #expect(ends.count == 1)
        #expect(ends.first?.entry.changes == [.init(field: "discounted_price", old: "1235", new: "500")])
        await scheduler.pass()
        #expect(s.api.writeCount == 2)
        #expect(try await s.rows("sale-start").count == 1)
    }

    /// A step completed twice (a resumed crash and a late original) writes one row.
    @Test func aStepIsCompletedOnlyOnce() async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        let id = try await s.sale(1, .amount(1_000), from: 0, to: 50)
        #expect(try await s.store.recordStart(id, earlier: 0, applied: 1_000))
        #expect(try await !s.store.recordStart(id, earlier: 1_000, applied: 1_000))
        let entry = ActivityEntry(person: "kim", address: "", action: "sale-start", productID: 1)
        #expect(try await s.store.completeStart(id, activity: entry, at: s.clock.now))
        #expect(try await !s.store.completeStart(id, activity: entry, at: s.clock.now))
        #expect(try await s.rows("sale-start").count == 1)
        #expect(try await s.store.sale(id)?.earlierDiscount == 0)
    }

    @Test func percentagesRoundToWholeWonAndCents() {
        #expect(SaleDiscount.percent(10).amount(price: 12_345, currency: .KRW) == 1_235)
        #expect(SaleDiscount.percent(33).amount(price: 1_000, currency: .KRW) == 330)
        #expect(SaleDiscount.percent(15).amount(price: 19.99, currency: .USD) == 3.00)
        #expect(SaleDiscount.percent(12.5).amount(price: 10.01, currency: .USD) == 1.25)
        #expect(SaleDiscount.amount(3_000).amount(price: 12_000, currency: .KRW) == 3_000)
    }

    @Test func aStartThatFellWhileStoppedHappensAtTheNextStart() async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        s.api.add(1, price: 10_000)
        let id = try await s.sale(1, .amount(1_000), from: 10, to: 100)
        s.clock.advance(50)   // the panel was stopped over the start
        await s.scheduler().pass()
        #expect(try await s.store.sale(id)?.state == .running)
        #expect(s.api.discount(1) == 1_000)
        s.clock.advance(100)  // … and again over the end
        await s.scheduler().pass()
        #expect(try await s.store.sale(id)?.state == .ended)
        #expect(s.api.discount(1) == 0)
        #expect(try await s.rows("sale-start").count == 1)
        #expect(try await s.rows("sale-end").count == 1)
    }

    @Test func aSaleThatWholeFellWhileStoppedIsNotStartedAndSaysWhy() async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        s.api.add(1, price: 10_000, discount: 100)
        let id = try await s.sale(1, .amount(1_000), from: 10, to: 100)
        s.clock.advance(300)
        let scheduler = s.scheduler()
        #expect(await scheduler.pass() == nil)
        let sale = try #require(try await s.store.sale(id))
        #expect(sale.state == .ended)
        #expect(sale.note?.key == "sales_note_missed")
        #expect(s.api.writeCount == 0 && s.api.discount(1) == 100)
        #expect(try await s.rows("sale-start").isEmpty)
    }

    /// A crash right after the API took the start, before the panel marked it done: the next start
    /// sends the same PATCH again (harmless) and writes the one `sale-start` row.
    @Test(arguments: [FakeSaleAPI.Hang.afterWrite, .beforeWrite])
    func aCrashBetweenRecordAndCallIsFinishedOnceAtTheNextStart(_ crash: FakeSaleAPI.Hang) async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        s.api.add(1, price: 10_000, discount: 700)
        let id = try await s.sale(1, .amount(2_000), from: 10, to: 100)
        s.clock.advance(10)
        s.api.hang(crash)
        let doomed = s.scheduler()
        let stuck = Task { await doomed.pass() }
        // Wait until the start is recorded and its call is under way.
        try await poll { try await s.store.sale(id)?.pending == .start && (crash == .beforeWrite || s.api.writeCount == 1) }
        #expect(try await s.store.sale(id)?.state == .scheduled)
        #expect(try await s.rows("sale-start").isEmpty)

        s.api.hang(.none)
        let restarted = s.scheduler()
        await restarted.pass()
        let sale = try #require(try await s.store.sale(id))
        #expect(sale.state == .running && sale.pending == nil)
        #expect(sale.earlierDiscount == 700)   // recorded before the call, not re-read after it
        #expect(s.api.discount(1) == 2_000)
        #expect(try await s.rows("sale-start").count == 1)

        s.clock.advance(100)
        await restarted.pass()
        #expect(s.api.discount(1) == 700)
        #expect(try await s.rows("sale-end").count == 1)
        stuck.cancel()
    }

    /// The same at the end: the decision to restore is recorded before the PATCH, so the restarted
    /// panel does not mistake its own restored discount for someone else's change.
    @Test func aCrashDuringTheEndIsFinishedOnceAtTheNextStart() async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        s.api.add(1, price: 10_000, discount: 700)
        let id = try await s.sale(1, .amount(2_000), from: 10, to: 100)
        s.clock.advance(10)
        await s.scheduler().pass()
        s.clock.advance(90)
        s.api.hang(.afterWrite)
        let doomed = s.scheduler()
        let stuck = Task { await doomed.pass() }
        try await poll { s.api.writeCount == 2 }
        #expect(try await s.store.sale(id)?.pending == .end)
        #expect(try await s.store.sale(id)?.finishAction == .restore)

        s.api.hang(.none)
        await s.scheduler().pass()
        let sale = try #require(try await s.store.sale(id))
        #expect(sale.state == .ended && sale.note == nil)
        #expect(s.api.discount(1) == 700)
        let ends = try await s.rows("sale-end")
        #expect(ends.count == 1)
        #expect(ends.first?.entry.changes.first?.new == "700")
        stuck.cancel()
    }

    @Test func aClockSetBackRepeatsNothingAndOneSetForwardSkipsNothing() async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        s.api.add(1, price: 10_000)
        s.api.add(2, price: 10_000)
        let first = try await s.sale(1, .amount(1_000), from: 10, to: 20)
        let second = try await s.sale(2, .amount(500), from: 1_000, to: 2_000)
        let scheduler = s.scheduler()
        s.clock.advance(10)
        await scheduler.pass()
        #expect(try await s.store.sale(first)?.state == .running)
        // NTP sets the clock back before the start: nothing is started again.
        s.clock.advance(-5)
        #expect(await scheduler.pass() == s.t0 + 20)
        #expect(s.api.writeCount == 1)
        #expect(try await s.rows("sale-start").count == 1)
        // … then far forward, past the end of the first sale and the whole second one: every step
        // happens, in order, once (the panel was running, so none counts as missed).
        s.clock.advance(3_000)
        await scheduler.pass()
        #expect(try await s.store.sale(first)?.state == .ended)
        #expect(try await s.store.sale(second)?.state == .ended)
        #expect(try await s.store.sale(second)?.note == nil)
        // Each product's steps in order (the two products are served side by side, so their
        // writes may interleave either way).
        #expect(s.api.writes.filter { $0.id == 1 }.map(\.discount) == [1_000, 0])
        #expect(s.api.writes.filter { $0.id == 2 }.map(\.discount) == [500, 0])
        #expect(try await s.rows("sale-start").count == 2)
        #expect(try await s.rows("sale-end").count == 2)
    }

    @Test func salesOfOneProductMayNotOverlapButMayTouch() async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        let id = try await s.sale(1, .amount(1_000), from: 100, to: 200)
        let inside = try await s.store.create(.init(productID: 1, productName: "P", currency: .KRW, discount: .percent(5),
                                                    start: s.t0 + 150, end: s.t0 + 300, createdBy: "kim", createdAt: s.t0))
        guard case .overlaps(let other) = inside else { Issue.record("an overlap was stored"); return }
        #expect(other.id == id)
        // One ending when the next starts is fine; so is another product at the same time.
        try await s.sale(1, .amount(1_000), from: 200, to: 300)
        try await s.sale(1, .amount(1_000), from: 0, to: 100)
        try await s.sale(2, .amount(1_000), from: 150, to: 250)
        #expect(SaleRules.overlaps(s.t0...(s.t0 + 10), (s.t0 + 9)...(s.t0 + 20)))
        #expect(!SaleRules.overlaps(s.t0...(s.t0 + 10), (s.t0 + 10)...(s.t0 + 20)))
    }

    @Test func anEndLeavesADiscountSomeoneChangedAndSaysSo() async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        s.api.add(1, price: 10_000, discount: 100)
        let id = try await s.sale(1, .amount(1_000), from: 0, to: 50)
        let scheduler = s.scheduler()
        await scheduler.pass()
        s.api.setExternally(1, discount: 2_500)
        s.clock.advance(50)
        await scheduler.pass()
        #expect(s.api.discount(1) == 2_500)
        let sale = try #require(try await s.store.sale(id))
        #expect(sale.state == .ended && sale.note?.key == "sales_note_left_alone" && sale.note?.arguments["discount"] == "2500")
        let end = try #require(try await s.rows("sale-end").first)
        #expect(end.entry.changes.isEmpty)
        let detail = try #require(end.entry.detail.flatMap(ActivityDetail.init(stored:)))
        #expect(detail.name == "sale_ended_left_alone" && detail.arguments["discount"] == "2500")
    }

    @Test func apiFailuresAreRetriedWithBackOffAndEachTryIsKept() async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        s.api.add(1, price: 10_000)
        let id = try await s.sale(1, .amount(1_000), from: 0, to: 500)
        s.api.fail(.unreachable(reason: "connection refused"), .timeout)
        let scheduler = s.scheduler()
        #expect(await scheduler.pass() == s.t0 + 1)
        #expect(try await s.store.sale(id)?.attempts == 1)
        s.clock.advance(1)
        #expect(await scheduler.pass() == s.t0 + 3)   // 1 s, then 2 s
        s.clock.advance(1)
        #expect(await scheduler.pass() == s.t0 + 3)   // not yet
        s.clock.advance(1)
        await scheduler.pass()
        let sale = try #require(try await s.store.sale(id))
        #expect(sale.state == .running && sale.attempts == 0 && sale.note == nil)
        let tries = try await s.store.tries(of: [id])[id] ?? []
        #expect(tries.count == 2)
        #expect(tries.last?.failure.contains("connection refused") == true)
        #expect(SaleScheduler.backOff(attempt: 30) == 60)
    }

    @Test func aStartThatKeepsFailingUntilTheEndFailsWithoutARow() async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        s.api.add(1, price: 10_000, discount: 100)
        let id = try await s.sale(1, .amount(1_000), from: 0, to: 100)
        s.api.failWrites = true
        let scheduler = s.scheduler()
        await scheduler.pass()
        #expect(try await s.store.sale(id)?.pending == .start)
        s.clock.advance(101)
        await scheduler.pass()
        let sale = try #require(try await s.store.sale(id))
        #expect(sale.state == .failed && sale.note?.key == "sales_note_too_late")
        #expect(s.api.writeCount == 0 && s.api.discount(1) == 100)
        #expect(try await s.rows("sale-start").isEmpty)
    }

    @Test func aStartRefusedForGoodFailsAndTouchesNothing() async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        s.api.add(1, price: 500)   // the price fell below the sale's amount since it was set
        let id = try await s.sale(1, .amount(1_000), from: 0, to: 50)
        await s.scheduler().pass()
        let sale = try #require(try await s.store.sale(id))
        #expect(sale.state == .failed && sale.note?.key == "sales_note_over_price")
        #expect(s.api.writeCount == 0)
    }

    @Test func cancellingARunningSalePutsTheEarlierDiscountBack() async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        s.api.add(1, price: 10_000, discount: 300)
        s.api.add(2, price: 10_000)
        let running = try await s.sale(1, .percent(20), from: 0, to: 500)
        let upcoming = try await s.sale(2, .percent(20), from: 100, to: 500)
        let scheduler = s.scheduler()
        await scheduler.pass()
        #expect(s.api.discount(1) == 2_000)
        #expect(await scheduler.cancel(running, person: "lee", address: "127.0.0.1") == .cancelled)
        #expect(s.api.discount(1) == 300)
        #expect(await scheduler.cancel(upcoming, person: "lee", address: "127.0.0.1") == .cancelled)
        #expect(s.api.writeCount == 2)
        #expect(await scheduler.cancel(upcoming, person: "lee", address: "127.0.0.1") == .alreadyOver)
        #expect(await scheduler.cancel(999, person: "lee", address: "127.0.0.1") == .notFound)
        let rows = try await s.rows("sale-cancelled")
        #expect(rows.count == 2 && rows.allSatisfy { $0.entry.person == "lee" })
        s.clock.advance(1_000)
        #expect(await scheduler.pass() == nil)
        #expect(s.api.writeCount == 2)
    }

    @Test func aThousandSalesDueInOneSecondRunFourAtATime() async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        for id in 1...1_000 {
            s.api.add(id, price: 10_000)
            try await s.sale(id, .percent(10), from: 0, to: 3_600)
        }
        s.api.writeDelay = 1_000_000
        await s.scheduler().pass()
        #expect(s.api.writeCount == 1_000)
        #expect(s.api.peak == 4)
        #expect(try await s.store.list(.init(state: .running), limit: 2_000).count == 1_000)
    }

    @Test func theLoopWakesEarlyForANewSaleAndStopsCleanly() async throws {
        let s = try Setup()
        defer { s.cleanUp() }
        s.api.add(1, price: 10_000)
        let scheduler = SaleScheduler(store: s.store, api: s.api, now: { Date() }, maxNap: 600)
        await scheduler.start()
        let now = Date()
        _ = try await s.store.create(.init(productID: 1, productName: "P", currency: .KRW, discount: .amount(100),
                                           start: now, end: now + 600, createdBy: "kim", createdAt: now))
        await scheduler.wake()
        try await poll { s.api.writeCount == 1 }
        await scheduler.stop()
    }

    @Test func aTenYearSaleIsAllowedAndShownAsTenYears() throws {
        let zone = TimeZone(identifier: "Asia/Seoul")!
        let start = try #require(SaleRules.parseLocalTime("2026-11-27T00:00", zone: zone))
        let end = try #require(SaleRules.parseLocalTime("2036-11-27T00:00:00", zone: zone))
        #expect(SaleRules.periodIssues(start: start, startText: "x", end: end, endText: "x", now: start).isEmpty)
        let century = try #require(SaleRules.parseLocalTime("2126-11-27T00:00", zone: zone))
        #expect(SaleRules.periodIssues(start: start, startText: "x", end: century, endText: "x", now: start).map(\.code)
                == ["sale_period_too_long"])
        let catalogs = try StringCatalogs(directory: PanelHarness.repository.appendingPathComponent("Templates/strings"))
        let english = SaleText(zone: zone, l: Localizer(catalog: catalogs[.en]))
        let korean = SaleText(zone: zone, l: Localizer(catalog: catalogs[.ko]))
        #expect(english.length(start, end) == "10 years")
        #expect(korean.length(start, end) == "10년")
        #expect(english.length(start, start + 2 * 86_400 + 23 * 3_600 + 58 * 60) == "2 days 23 hours")
        // A period that ends at 23:59 or 23:59:59 is counted in whole days, as a seller counts it.
        #expect(english.length(start, start + 2 * 86_400 + 23 * 3_600 + 59 * 60) == "3 days")
        #expect(korean.length(start, start + 86_400 + 23 * 3_600 + 59 * 60 + 59) == "2일")
        #expect(english.time(start) == "Nov 27, 2026 00:00")
        #expect(english.zoneName == "Asia/Seoul (UTC+9)")
        #expect(korean.zoneName == "한국 시간 (UTC+9)")   // a Korean page names the zone in Korean
        #expect(korean.period(start, start + 86_400).hasSuffix("(한국 시간)"))
    }

    /// `eventually`, failing the test after 20 s.
    func poll(_ condition: () async throws -> Bool) async throws {
        guard try await eventually(seconds: 20, condition) else { throw TestClientFailure(description: "condition not met in 20 s") }
    }
}

/// The core's rules for a sale as typed.
@Suite struct SaleRulesTests {
    @Test func discountsAreAmountsOrPercentages() {
        #expect(SaleRules.parseDiscount("10%") == .percent(10))
        #expect(SaleRules.parseDiscount(" 12.5 % ") == .percent(12.5))
        #expect(SaleRules.parseDiscount("10,000") == .amount(10_000))
        #expect(SaleRules.parseDiscount("₩10,000") == .amount(10_000))
        #expect(SaleRules.parseDiscount("3,000원") == .amount(3_000))
        for bad in ["", "-10%", "+500", "abc", "10%%", "1,0%", "12,00", String(repeating: "9", count: 40)] {
            #expect(SaleRules.parseDiscount(bad) == nil, "\(bad)")
        }
    }

    @Test func discountsMustFitThePriceAfterRounding() {
        #expect(SaleRules.discountIssues("10%", price: 12_000, currency: .KRW).isEmpty)
        #expect(SaleRules.discountIssues("100%", price: 12_000, currency: .KRW).isEmpty)
        #expect(SaleRules.discountIssues("12,000", price: 12_000, currency: .KRW).isEmpty)
        #expect(SaleRules.discountIssues("12,001", price: 12_000, currency: .KRW).map(\.code) == ["sale_discount_over_price"])
        #expect(SaleRules.discountIssues("100.5", price: 12_000, currency: .KRW).map(\.code) == ["sale_discount_whole_won"])
        #expect(SaleRules.discountIssues("1.25", price: 10, currency: .USD).isEmpty)
        #expect(SaleRules.discountIssues("1.255", price: 10, currency: .USD).map(\.code) == ["sale_discount_cents"])
        #expect(SaleRules.discountIssues("101%", price: 10, currency: .USD).map(\.code) == ["sale_percent_range"])
        #expect(SaleRules.discountIssues("0%", price: 10, currency: .USD).map(\.code) == ["sale_percent_range"])
        #expect(SaleRules.discountIssues("0", price: 10, currency: .USD).map(\.code) == ["sale_discount_not_positive"])
        #expect(SaleRules.discountIssues("1%", price: 10, currency: .KRW).map(\.code) == ["sale_discount_rounds_to_zero"])
        #expect(SaleRules.discountIssues("", price: 10, currency: .KRW).map(\.field) == ["sale_discount"])
    }

    @Test func timesAreReadInThePanelsZone() throws {
        let seoul = TimeZone(identifier: "Asia/Seoul")!
        let utc = TimeZone(identifier: "UTC")!
        let time = try #require(SaleRules.parseLocalTime("2026-11-27T00:00", zone: seoul))
        #expect(time == SaleRules.parseLocalTime("2026-11-26T15:00:00", zone: utc))
        #expect(SaleRules.localTimeText(time, zone: seoul) == "2026-11-27T00:00:00")
        #expect(SaleRules.parseLocalTime("2026-11-27 00:00:05", zone: seoul) == time + 5)
        for bad in ["", "2026-02-30T00:00", "2026-13-01T00:00", "2026-11-27T24:00", "2026-11-27", "27/11/2026 00:00",
                    "2026-11-27T00:00:60", "2026-11-27T00:00:0", "१९७०-01-01T00:00", "0999-01-01T00:00"] {
            #expect(SaleRules.parseLocalTime(bad, zone: seoul) == nil, "\(bad)")
        }
    }

    @Test func theEndComesAfterTheStartAndAPastStartMeansNow() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(SaleRules.periodIssues(start: now - 3_600, startText: "x", end: now + 60, endText: "x", now: now).isEmpty)
        #expect(SaleRules.periodIssues(start: now + 60, startText: "x", end: now + 60, endText: "x", now: now).map(\.code)
                == ["sale_end_not_after_start"])
        #expect(SaleRules.periodIssues(start: now - 3_600, startText: "x", end: now - 60, endText: "x", now: now).map(\.code)
                == ["sale_end_passed"])
        #expect(SaleRules.periodIssues(start: nil, startText: "", end: nil, endText: "soon", now: now).map(\.code)
                == ["sale_start_empty", "sale_time_unreadable"])
    }
}
