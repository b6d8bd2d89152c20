import Foundation
import OpenMarketCore

/// Starts and ends scheduled discounts on time, exactly once, across restarts.
///
/// One task sleeps until the next due time (a start, an end or a retry), at most `maxNap`, and is
/// woken early when a sale is added or cancelled. On every wake it compares the *wall clock* with
/// the stored due times, so a clock set back repeats nothing (a step done is marked done) and a
/// clock set forward skips nothing (everything due is done, in order). Due sales are worked on
/// `concurrency` at a time; pages never wait for them.
///
/// Each step is recorded before its API call and completed after it (see `Sale`); a step found
/// recorded at start-up was cut short by a crash and is finished then.
actor SaleScheduler {
    private let store: SaleStore
    private let api: any SaleProductAPI
    private let now: @Sendable () -> Date
    private let concurrency: Int
    /// The longest sleep: bounds how late a step can be after the wall clock jumps forward.
    private let maxNap: TimeInterval
    /// The wall clock when this scheduler was made: a sale whose end passed before it was missed
    /// while the panel was stopped, and is not started.
    let bootTime: Date

    private var inFlight: Set<Int> = []
    /// Cancels waiting for a step of their sale under way to finish.
    private var waiters: [Int: [CheckedContinuation<Void, Never>]] = [:]
    private var loop: Task<Void, Never>?
    private var napTask: Task<Void, Never>?
    private var wakeRequested = false
    private var stopped = false
    private var loopFinished = false

    init(store: SaleStore, api: any SaleProductAPI, now: @escaping @Sendable () -> Date, concurrency: Int = 4,
         maxNap: TimeInterval = 30) {
        self.store = store
        self.api = api
        self.now = now
        self.concurrency = max(1, concurrency)
        self.maxNap = maxNap
        bootTime = now()
    }

    // MARK: running

    func start() {
        guard loop == nil, !stopped else { return }
        loop = Task { await self.run() }
    }

    /// Stops the loop: a step under way is abandoned where it is (its record makes the next start
    /// finish it). Waits for the loop at most `grace` seconds (an API call may not notice at once).
    func stop(grace: TimeInterval = 5) async {
        stopped = true
        napTask?.cancel()
        guard let loop else { return }
        loop.cancel()
        self.loop = nil
        let deadline = Date() + grace
        while !loopFinished, Date() < deadline {
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    /// A sale was added or cancelled: look again now instead of at the planned time.
    func wake() {
        wakeRequested = true
        napTask?.cancel()
    }

    private func run() async {
        defer { loopFinished = true }
        while !stopped, !Task.isCancelled {
            let next = await pass()
            if stopped || Task.isCancelled { break }
            await nap(until: next)
        }
    }

    private func nap(until wake: Date?) async {
        if wakeRequested { wakeRequested = false; return }
        let seconds = min(maxNap, max(0.01, (wake?.timeIntervalSince(now()) ?? maxNap) + 0.01))
        let task = Task { _ = try? await Task.sleep(for: .seconds(seconds)) }
        napTask = task
        await task.value
        napTask = nil
        wakeRequested = false
    }

    /// Does everything due by the wall clock now, `concurrency` sales at a time; answers when
    /// the next thing is due (nil: no open sale). Tests call it directly with a clock of their own.
    @discardableResult
    func pass() async -> Date? {
        while !Task.isCancelled, !stopped {
            let due: [Sale]
            do {
                due = try await store.due(at: now(), limit: 64).filter { !inFlight.contains($0.id) }
            } catch {
                report("sales could not be read: \(error)")
                return now().addingTimeInterval(5)
            }
            if due.isEmpty { break }
            var progressed = false
            await withTaskGroup(of: Bool.self) { group in
                var rest = due[...]
                for _ in 0..<min(concurrency, rest.count) {
                    let sale = rest.removeFirst()
                    group.addTask { await self.advance(sale.id) }
                }
                while let moved = await group.next() {
                    progressed = progressed || moved
                    if let sale = rest.popFirst() { group.addTask { await self.advance(sale.id) } }
                }
            }
            // Nothing moved (storage refusing writes): do not spin; look again shortly.
            if !progressed { return now().addingTimeInterval(5) }
        }
        let next = try? await store.nextDue()
        // What is still due now is under way elsewhere (a cancel finishing it): not a reason to spin.
        if let next, next <= now() { return now().addingTimeInterval(1) }
        return next
    }

    // MARK: cancelling

    enum CancelOutcome: Sendable, Equatable { case cancelled, pending, alreadyOver, notFound }

    /// Cancels a sale at once: an upcoming one without a word to the API, a running one by putting
    /// the earlier discount back (if the product still has the sale's). A step of the sale under way
    /// finishes first. `pending` when the API could not be reached: the cancel is retried.
    func cancel(_ id: Int, person: String, address: String) async -> CancelOutcome {
        guard let sale = try? await store.sale(id) else { return .notFound }
        guard !sale.state.isFinal, (try? await store.requestCancel(id, person: person, address: address)) == true else {
            return .alreadyOver
        }
        // A recorded start is finished before it is cancelled (the product may have the discount).
        for _ in 0..<3 {
            while inFlight.contains(id) {
                await withCheckedContinuation { waiters[id, default: []].append($0) }
            }
            guard await advance(id), let now = try? await store.sale(id), !now.state.isFinal else { break }
        }
        guard let after = try? await store.sale(id) else { return .notFound }
        switch after.state {
        case .cancelled: return .cancelled
        case .ended, .failed: return .alreadyOver
        case .scheduled, .running: wake(); return .pending
        }
    }

    // MARK: one sale

    /// What a sale needs now, decided from its stored state and the wall clock.
    enum Decision: Equatable {
        case none
        /// Its end passed while the panel was stopped, before it could start: not started.
        case missed
        /// Its start kept failing until its end passed.
        case tooLate
        case start
        /// A recorded start found after the end passed: finished only if it reached the product.
        case resolveLateStart
        case cancelUnstarted
        case finish(Sale.Step)
    }

    static func decide(_ sale: Sale, now: Date, bootTime: Date) -> Decision {
        switch sale.state {
        case .ended, .cancelled, .failed:
            return .none
        case .scheduled:
            if sale.pending == .start { return sale.end <= now ? .resolveLateStart : .start }
            if sale.cancelRequest != nil { return .cancelUnstarted }
            guard sale.start <= now, (sale.nextTryAt ?? .distantPast) <= now else { return .none }
            if sale.end <= bootTime { return .missed }
            if sale.end <= now, sale.attempts > 0 { return .tooLate }
            return .start
        case .running:
            if let step = sale.pending, step != .start { return .finish(step) }
            if sale.cancelRequest != nil { return .finish(.cancel) }
            guard sale.end <= now, (sale.nextTryAt ?? .distantPast) <= now else { return .none }
            return .finish(.end)
        }
    }

    /// Takes the sale's next step if one is due; true when its stored state moved.
    @discardableResult
    func advance(_ id: Int) async -> Bool {
        guard inFlight.insert(id).inserted else { return false }
        defer {
            inFlight.remove(id)
            for waiter in waiters.removeValue(forKey: id) ?? [] { waiter.resume() }
        }
        do {
            guard let sale = try await store.sale(id) else { return false }
            let time = now()
            switch Self.decide(sale, now: time, bootTime: bootTime) {
            case .none:
                return false
            case .missed:
                return try await store.close(id, as: .ended, note: SaleNote(key: "sales_note_missed"), at: time)
            case .tooLate:
                return try await store.close(id, as: .failed, note: SaleNote(key: "sales_note_too_late",
                                                                             arguments: sale.note?.arguments ?? [:]), at: time)
            case .start:
                return try await start(sale)
            case .resolveLateStart:
                return try await resolveLateStart(sale)
            case .cancelUnstarted:
                let request = sale.cancelRequest!
                return try await store.cancelScheduled(id, activity: ActivityEntry(
                    person: request.person, address: request.address, action: SaleActivity.cancelled, productID: sale.productID,
                    detail: SaleActivityDetail.cancelledBeforeStart(sale).stored), at: time)
            case .finish(let step):
                return try await finish(sale, step: step)
            }
        } catch let failure as StepFailure {
            return await handle(failure, of: id)
        } catch {
            report("sale \(id) could not be stored: \(error)")
            return false
        }
    }

    /// Reads the product, records the earlier and the sale's discount, sets it, completes.
    private func start(_ sale: Sale) async throws -> Bool {
        var earlier = sale.earlierDiscount ?? 0
        var applied = sale.appliedDiscount ?? 0
        if sale.pending != .start {
            let product = try await call(.start) { () async throws(OpenMarketError) in try await self.api.product(id: sale.productID) }
            guard product.currency == sale.currency || sale.discount.kind == "percent" else {
                return try await store.close(sale.id, as: .failed, note: SaleNote(key: "sales_note_currency_changed"), at: now())
            }
            applied = sale.discount.amount(price: product.price, currency: product.currency)
            guard applied <= product.price else {
                return try await store.close(sale.id, as: .failed, note: SaleNote(
                    key: "sales_note_over_price", arguments: ["discount": Self.number(applied), "price": Self.number(product.price)]),
                    at: now())
            }
            earlier = product.discountedPrice
            guard try await store.recordStart(sale.id, earlier: earlier, applied: applied) else { return false }
        }
        let amount = applied
        _ = try await call(.start) { () async throws(OpenMarketError) in
            try await self.api.setDiscount(amount, productID: sale.productID)
        }
        return try await store.completeStart(sale.id, activity: ActivityEntry(
            person: sale.createdBy, address: "", action: SaleActivity.start, productID: sale.productID,
            changes: [.init(field: "discounted_price", old: Self.number(earlier), new: Self.number(applied))],
            detail: SaleActivityDetail.started(sale, applied: applied).stored), at: now())
    }

    /// A start recorded before a stop that outlasted the sale: if the product got the discount,
    /// the start happened (its row is written, and the end follows at once); if not, it never did.
    private func resolveLateStart(_ sale: Sale) async throws -> Bool {
        let product = try await call(.start) { () async throws(OpenMarketError) in try await self.api.product(id: sale.productID) }
        if let applied = sale.appliedDiscount, Self.same(product.discountedPrice, applied) {
            return try await store.completeStart(sale.id, activity: ActivityEntry(
                person: sale.createdBy, address: "", action: SaleActivity.start, productID: sale.productID,
                changes: [.init(field: "discounted_price", old: Self.number(sale.earlierDiscount ?? 0), new: Self.number(applied))],
                detail: SaleActivityDetail.started(sale, applied: applied).stored), at: now())
        }
        // Never reached the product: missed while stopped, or the API failed until the end.
        if sale.end <= bootTime {
            return try await store.close(sale.id, as: .ended, note: SaleNote(key: "sales_note_missed"), at: now())
        }
        return try await store.close(sale.id, as: .failed, note: SaleNote(key: "sales_note_too_late"), at: now())
    }

    /// Ends or cancels a running sale: decides (and records) whether the product still has the
    /// sale's discount, puts the earlier one back if so, completes with its row.
    private func finish(_ sale: Sale, step: Sale.Step) async throws -> Bool {
        let action: Sale.FinishAction
        var note: SaleNote?
        let applied = sale.appliedDiscount ?? 0, earlier = sale.earlierDiscount ?? 0
        if sale.pending == step, let recorded = sale.finishAction {
            action = recorded
            // The decision's own note (left alone, product gone), not a retry's.
            note = sale.note?.key == "sales_note_retrying" ? nil : sale.note
        } else {
            do {
                let product = try await call(step) { () async throws(OpenMarketError) in
                    try await self.api.product(id: sale.productID)
                }
                action = Self.same(product.discountedPrice, applied) ? .restore : .leave
                if action == .leave {
                    note = SaleNote(key: "sales_note_left_alone", arguments: ["discount": Self.number(product.discountedPrice)])
                }
            } catch StepFailure.refused(let error) where error.meansProductGone {
                action = .leave
                note = SaleNote(key: "sales_note_product_gone")
            }
            guard try await store.recordFinish(sale.id, step: step, action: action, note: note) else { return false }
        }
        var changes: [ActivityEntry.FieldChange] = []
        if action == .restore {
            do {
                _ = try await call(step) { () async throws(OpenMarketError) in
                    try await self.api.setDiscount(earlier, productID: sale.productID)
                }
                changes = [.init(field: "discounted_price", old: Self.number(applied), new: Self.number(earlier))]
            } catch StepFailure.refused(let error) {
                // The product went away or no longer takes the old discount (its price fell below
                // it): nothing to put back; the sale is over all the same.
                if error.meansProductGone {
                    note = SaleNote(key: "sales_note_product_gone")
                } else {
                    note = SaleNote(key: "sales_note_restore_refused",
                                    arguments: ["discount": Self.number(earlier), "reason": error.description])
                }
            }
        }
        let kind = step == .cancel ? SaleActivity.cancelled : SaleActivity.end
        let person = step == .cancel ? sale.cancelRequest?.person ?? sale.createdBy : sale.createdBy
        let address = step == .cancel ? sale.cancelRequest?.address ?? "" : ""
        let detail = SaleActivityDetail.finished(sale, cancelled: step == .cancel, action: action, note: note).stored
        return try await store.completeFinish(sale.id, step: step, note: note, activity: ActivityEntry(
            person: person, address: address, action: kind, productID: sale.productID, changes: changes, detail: detail), at: now())
    }

    // MARK: failures

    /// An API failure of a step: `retry` for a passing fault, `refused` for a final answer.
    enum StepFailure: Error {
        case retry(Sale.Step, OpenMarketError)
        case refused(OpenMarketError)
        /// The scheduler stopped in the middle: leave the record for the next start.
        case stopped
    }

    private func call<T: Sendable>(_ step: Sale.Step, _ work: @Sendable () async throws(OpenMarketError) -> T) async throws -> T {
        do {
            return try await work()
        } catch {
            if Task.isCancelled || stopped { throw StepFailure.stopped }
            throw error.worthRetryingLater ? StepFailure.retry(step, error) : StepFailure.refused(error)
        }
    }

    private func handle(_ failure: StepFailure, of id: Int) async -> Bool {
        let time = now()
        do {
            switch failure {
            case .stopped:
                return false
            case .retry(let step, let error):
                let attempts = (try await store.sale(id))?.attempts ?? 0
                let next = time.addingTimeInterval(Self.backOff(attempt: attempts + 1))
                try await store.recordTry(id, step: step, failure: error.description, at: time, nextTry: next,
                                          note: SaleNote(key: "sales_note_retrying",
                                                         arguments: ["count": String(attempts + 1), "reason": error.description]))
                return true
            case .refused(let error):
                // Only a start can be refused for good here (a finish handles its refusals):
                // the product is untouched.
                let key = error.meansProductGone ? "sales_note_product_gone" : "sales_note_start_refused"
                return try await store.close(id, as: .failed, note: SaleNote(key: key, arguments: ["reason": error.description]),
                                             at: time)
            }
        } catch {
            report("sale \(id) could not be stored: \(error)")
            return false
        }
    }

    /// Seconds before try `attempt + 1`: 1, 2, 4 … up to a minute.
    static func backOff(attempt: Int) -> TimeInterval {
        min(60, pow(2, Double(max(0, min(attempt, 10) - 1))))
    }

    // MARK: helpers

    static func same(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 0.000_5 }

    /// A stored amount as the activity log keeps numbers (`1000`, `12.5`).
    static func number(_ value: Double) -> String { Money.inputValue(value) }


    private func report(_ text: String) {
        FileHandle.standardError.write(Data("openmarket-admin: \(text)\n".utf8))
    }
}
