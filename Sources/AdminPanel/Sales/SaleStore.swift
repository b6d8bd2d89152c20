import Foundation
import OpenMarketCore
import SQLiteStore

/// Scheduled discounts in `DATA/panel.sqlite` (tables `sales` and `sale_tries`, beside the
/// panel's own). Every change is one transaction on the panel's writer; each state change is
/// guarded by the state it expects (`WHERE state = … AND pending …`), so a step completed twice —
/// by a panel that resumed it after a crash, say — changes nothing the second time and writes no
/// second activity row.
final class SaleStore: Sendable {
    let database: PanelDatabase
    private let openStatesKept = OpenSaleStates()

    /// Tries kept per sale for `/sales` (the newest).
    static let keptTries = 10

    static let schema = """
        CREATE TABLE IF NOT EXISTS sales (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            product_id INTEGER NOT NULL,
            product_name TEXT NOT NULL,
            currency TEXT NOT NULL,
            discount_kind TEXT NOT NULL CHECK (discount_kind IN ('amount', 'percent')),
            discount_value REAL NOT NULL,
            start_at REAL NOT NULL,
            end_at REAL NOT NULL,
            created_by TEXT NOT NULL,
            created_at REAL NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('scheduled', 'running', 'ended', 'cancelled', 'failed')),
            -- a step recorded before its API call and cleared when it is done
            pending TEXT CHECK (pending IN ('start', 'end', 'cancel')),
            finish_action TEXT CHECK (finish_action IN ('restore', 'leave')),
            earlier_discount REAL,
            applied_discount REAL,
            note TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_try_at REAL,
            cancel_person TEXT,
            cancel_address TEXT,
            finished_at REAL);
        CREATE INDEX IF NOT EXISTS sales_by_product ON sales (product_id, start_at);
        CREATE INDEX IF NOT EXISTS sales_open ON sales (state) WHERE state IN ('scheduled', 'running');
        CREATE TABLE IF NOT EXISTS sale_tries (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            sale_id INTEGER NOT NULL REFERENCES sales(id) ON DELETE CASCADE,
            at REAL NOT NULL,
            step TEXT NOT NULL,
            failure TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS sale_tries_by_sale ON sale_tries (sale_id, id);
        """

    /// Told of each activity row a completed step wrote (the live product events).
    private let recorded: @Sendable (ActivityEntry) -> Void

    @available(*, noasync, message: "start-up only")
    init(database: PanelDatabase, recorded: @escaping @Sendable (ActivityEntry) -> Void = { _ in }) throws {
        self.database = database
        self.recorded = recorded
        try database.writer.performNow { try $0.execute(Self.schema + SaleRuns.schema) }
    }

    // MARK: creating

    struct NewSale: Sendable {
        var productID: Int
        var productName: String
        var currency: Currency
        var discount: SaleDiscount
        var start: Date
        var end: Date
        var createdBy: String
        var createdAt: Date
        /// The bulk run that booked it (`SaleRuns`), so the run's sales can be cancelled together.
        var runID: String?
    }

    enum CreateResult: Sendable, Equatable {
        case created(Int)
        /// Another open sale of the product meets this period.
        case overlaps(Sale)
    }

    /// Stores a sale unless it overlaps an open one of the same product: checked and inserted in
    /// one transaction, so two people scheduling at once cannot both pass the check.
    func create(_ sale: NewSale) async throws -> CreateResult {
        try await write { connection in
            try connection.transaction {
                let others = try Self.sales(where: "product_id = ? AND state IN ('scheduled', 'running')",
                                            [.integer(sale.productID)], connection)
                if let other = others.first(where: { SaleRules.overlaps($0.period, sale.start...sale.end) }) {
                    return .overlaps(other)
                }
                try connection.run("""
                    INSERT INTO sales (product_id, product_name, currency, discount_kind, discount_value, start_at, end_at,
                                       created_by, created_at, state)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'scheduled')
                    """, [.integer(sale.productID), .text(String(sale.productName.prefix(200))), .text(sale.currency.rawValue),
                          .text(sale.discount.kind), .real(sale.discount.value), .real(sale.start.timeIntervalSince1970),
                          .real(sale.end.timeIntervalSince1970), .text(sale.createdBy), .real(sale.createdAt.timeIntervalSince1970)])
                let id = connection.lastInsertedRowID
                if let run = sale.runID {
                    try connection.run("INSERT INTO sale_runs (sale_id, run_id) VALUES (?, ?)", [.integer(id), .text(run)])
                }
                return .created(id)
            }
        }
    }

    // MARK: reading

    struct Filter: Sendable, Equatable {
        var productID: Int?
        var state: Sale.State?
        var runID: String?
    }

    func sale(_ id: Int) async throws -> Sale? {
        try await database.reader.perform { try Self.sales(where: "id = ?", [.integer(id)], $0).first }
    }

    /// Sales matching `filter`: open ones by start (soonest first), then finished ones, newest first.
    func list(_ filter: Filter, limit: Int = 500) async throws -> [Sale] {
        var conditions: [String] = []
        var values: [SQLiteValue] = []
        if let product = filter.productID { conditions.append("product_id = ?"); values.append(.integer(product)) }
        if let state = filter.state { conditions.append("state = ?"); values.append(.text(state.rawValue)) }
        if let run = filter.runID {
            conditions.append("id IN (SELECT sale_id FROM sale_runs WHERE run_id = ?)")
            values.append(.text(run))
        }
        let clause = (conditions.isEmpty ? "1" : conditions.joined(separator: " AND "))
            + " ORDER BY state IN ('scheduled', 'running') DESC, CASE WHEN state IN ('scheduled', 'running') THEN start_at ELSE -id END"
            + " LIMIT \(max(1, min(limit, 5000)))"
        let frozen = values
        return try await database.reader.perform { try Self.sales(where: clause, frozen, $0) }
    }

    /// The products with a running or upcoming sale, for the list's badges.
    func openStates() async throws -> [Int: Sale.State] {
        let kept = openStatesKept.lookup()
        if let states = kept.states { return states }
        let states = try await database.reader.perform { connection in
            var states: [Int: Sale.State] = [:]
            try connection.query("SELECT product_id, state FROM sales WHERE state IN ('scheduled', 'running')") { row in
                let state = Sale.State(rawValue: row.string(1)) ?? .scheduled
                // Running wins over upcoming.
                if states[row.int(0)] != .running { states[row.int(0)] = state }
            }
            return states
        }
        openStatesKept.keep(states, readAt: kept.generation)
        return states
    }

    /// Sales that need the scheduler at `now`, soonest first.
    func due(at now: Date, limit: Int) async throws -> [Sale] {
        let time = now.timeIntervalSince1970
        return try await database.reader.perform { connection in
            try Self.sales(where: """
                state IN ('scheduled', 'running') AND COALESCE(next_try_at, 0) <= ?
                  AND (pending IS NOT NULL OR cancel_person IS NOT NULL
                       OR (state = 'scheduled' AND start_at <= ?) OR (state = 'running' AND end_at <= ?))
                ORDER BY CASE WHEN state = 'scheduled' THEN start_at ELSE end_at END, id LIMIT \(limit)
                """, [.real(time), .real(time), .real(time)], connection)
        }
    }

    /// The earliest time any open sale needs the scheduler (nil: none open).
    func nextDue() async throws -> Date? {
        try await database.reader.perform { connection in
            var next: Double?
            try connection.query("""
                SELECT MIN(MAX(CASE WHEN pending IS NOT NULL OR cancel_person IS NOT NULL THEN 0
                                    WHEN state = 'scheduled' THEN start_at ELSE end_at END,
                               COALESCE(next_try_at, 0)))
                FROM sales WHERE state IN ('scheduled', 'running')
                """) { row in next = row.isNull(0) ? nil : row.double(0) }
            return next.map(Date.init(timeIntervalSince1970:))
        }
    }

    /// The newest tries of these sales, newest first.
    func tries(of ids: [Int]) async throws -> [Int: [SaleTry]] {
        guard !ids.isEmpty else { return [:] }
        let list = ids.prefix(1000).map(String.init).joined(separator: ",")
        return try await database.reader.perform { connection in
            var tries: [Int: [SaleTry]] = [:]
            try connection.query("SELECT sale_id, at, step, failure FROM sale_tries WHERE sale_id IN (\(list)) ORDER BY id DESC") { row in
                tries[row.int(0), default: []].append(SaleTry(saleID: row.int(0), at: Date(timeIntervalSince1970: row.double(1)),
                                                              step: Sale.Step(rawValue: row.string(2)) ?? .start,
                                                              failure: row.string(3)))
            }
            return tries
        }
    }

    // MARK: steps

    /// Records a start before its API call: the product's discount before, the sale's to set.
    /// False when the sale is no longer waiting to start.
    func recordStart(_ id: Int, earlier: Double, applied: Double) async throws -> Bool {
        try await change("""
            UPDATE sales SET pending = 'start', earlier_discount = ?, applied_discount = ?
            WHERE id = ? AND state = 'scheduled' AND pending IS NULL
            """, [.real(earlier), .real(applied), .integer(id)])
    }

    /// Completes a recorded start with its `sale-start` row (once: only from `pending = 'start'`).
    func completeStart(_ id: Int, activity: ActivityEntry, at time: Date) async throws -> Bool {
        try await complete("""
            UPDATE sales SET state = 'running', pending = NULL, attempts = 0, next_try_at = NULL, note = NULL
            WHERE id = ? AND pending = 'start'
            """, [.integer(id)], activity: activity, at: time)
    }

    /// Records an end or a cancel of a running sale before its API call, with what it will do.
    func recordFinish(_ id: Int, step: Sale.Step, action: Sale.FinishAction, note: SaleNote?) async throws -> Bool {
        try await change("""
            UPDATE sales SET pending = ?, finish_action = ?, note = ?
            WHERE id = ? AND state = 'running' AND (pending IS NULL OR pending = ?)
            """, [.text(step.rawValue), .text(action.rawValue), Self.noteValue(note), .integer(id), .text(step.rawValue)])
    }

    /// Completes a recorded end or cancel with its row: `ended` or `cancelled`, with a note.
    func completeFinish(_ id: Int, step: Sale.Step, note: SaleNote?, activity: ActivityEntry, at time: Date) async throws -> Bool {
        try await complete("""
            UPDATE sales SET state = ?, pending = NULL, attempts = 0, next_try_at = NULL, note = ?, finished_at = ?
            WHERE id = ? AND pending = ? AND state = 'running'
            """, [.text(step == .cancel ? "cancelled" : "ended"), Self.noteValue(note), .real(time.timeIntervalSince1970),
                  .integer(id), .text(step.rawValue)], activity: activity, at: time)
    }

    /// Cancels a sale that has not started (no API call), with its `sale-cancelled` row.
    func cancelScheduled(_ id: Int, activity: ActivityEntry, at time: Date) async throws -> Bool {
        try await complete("""
            UPDATE sales SET state = 'cancelled', pending = NULL, next_try_at = NULL, finished_at = ?
            WHERE id = ? AND state = 'scheduled' AND pending IS NULL
            """, [.real(time.timeIntervalSince1970), .integer(id)], activity: activity, at: time)
    }

    /// Ends a sale without touching the product (it never started): `ended` or `failed`, with why.
    func close(_ id: Int, as state: Sale.State, note: SaleNote, at time: Date) async throws -> Bool {
        try await change("""
            UPDATE sales SET state = ?, pending = NULL, next_try_at = NULL, note = ?, finished_at = ?
            WHERE id = ? AND state IN ('scheduled', 'running')
            """, [.text(state.rawValue), Self.noteValue(note), .real(time.timeIntervalSince1970), .integer(id)])
    }

    /// Asks for a cancel; the scheduler performs it. False when the sale is already over.
    func requestCancel(_ id: Int, person: String, address: String) async throws -> Bool {
        try await change("""
            UPDATE sales SET cancel_person = ?, cancel_address = ? WHERE id = ? AND state IN ('scheduled', 'running')
            """, [.text(person), .text(String(address.prefix(100))), .integer(id)])
    }

    /// A failed try: kept for `/sales`, counted, and the next one set for `nextTry`.
    func recordTry(_ id: Int, step: Sale.Step, failure: String, at time: Date, nextTry: Date, note: SaleNote) async throws {
        try await write { connection in
            try connection.transaction {
                try connection.run("INSERT INTO sale_tries (sale_id, at, step, failure) VALUES (?, ?, ?, ?)",
                                   [.integer(id), .real(time.timeIntervalSince1970), .text(step.rawValue),
                                    .text(String(failure.prefix(300)))])
                try connection.run("""
                    DELETE FROM sale_tries WHERE sale_id = ? AND id NOT IN
                        (SELECT id FROM sale_tries WHERE sale_id = ? ORDER BY id DESC LIMIT \(Self.keptTries))
                    """, [.integer(id), .integer(id)])
                try connection.run("UPDATE sales SET attempts = attempts + 1, next_try_at = ?, note = ? WHERE id = ?",
                                   [.real(nextTry.timeIntervalSince1970), Self.noteValue(note), .integer(id)])
            }
        }
    }

    // MARK: helpers

    /// Every write to the tables: the open states kept for list pages are dropped once it ends.
    private func write<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        defer { openStatesKept.changed() }
        return try await database.writer.perform(work)
    }

    private func change(_ sql: String, _ values: [SQLiteValue]) async throws -> Bool {
        try await write { connection in
            try connection.run(sql, values)
            return connection.changes == 1
        }
    }

    /// A guarded state change and its activity row in one transaction: the row exists if and
    /// only if the change happened.
    private func complete(_ sql: String, _ values: [SQLiteValue], activity: ActivityEntry, at time: Date) async throws -> Bool {
        let done = try await write { connection in
            try connection.transaction {
                try connection.run(sql, values)
                guard connection.changes == 1 else { return false }
                try ActivityLog.write(activity, at: time, inside: connection)
                return true
            }
        }
        if done { recorded(activity) }
        return done
    }

    private static func noteValue(_ note: SaleNote?) -> SQLiteValue {
        guard let note, let data = try? JSONEncoder().encode(note) else { return .null }
        return .text(String(decoding: data, as: UTF8.self))
    }

    private static let columns = """
        id, product_id, product_name, currency, discount_kind, discount_value, start_at, end_at, created_by, created_at,
        state, pending, finish_action, earlier_discount, applied_discount, note, attempts, next_try_at, cancel_person,
        cancel_address, finished_at, (SELECT run_id FROM sale_runs WHERE sale_id = sales.id)
        """

    static func sales(where clause: String, _ values: [SQLiteValue], _ connection: SQLiteConnection) throws -> [Sale] {
        var sales: [Sale] = []
        try connection.query("SELECT \(columns) FROM sales WHERE " + clause, values) { row in
            func date(_ column: Int32) -> Date? { row.isNull(column) ? nil : Date(timeIntervalSince1970: row.double(column)) }
            func text(_ column: Int32) -> String? { row.isNull(column) ? nil : row.string(column) }
            sales.append(Sale(
                id: row.int(0), productID: row.int(1), productName: row.string(2),
                currency: Currency(rawValue: row.string(3)) ?? .KRW,
                discount: SaleDiscount(kind: row.string(4), value: row.double(5)) ?? .amount(row.double(5)),
                start: date(6)!, end: date(7)!, createdBy: row.string(8), createdAt: date(9)!,
                state: Sale.State(rawValue: row.string(10)) ?? .failed,
                pending: text(11).flatMap(Sale.Step.init(rawValue:)),
                finishAction: text(12).flatMap(Sale.FinishAction.init(rawValue:)),
                earlierDiscount: row.isNull(13) ? nil : row.double(13),
                appliedDiscount: row.isNull(14) ? nil : row.double(14),
                note: text(15).flatMap { try? JSONDecoder().decode(SaleNote.self, from: Data($0.utf8)) },
                attempts: row.int(16), nextTryAt: date(17),
                cancelRequest: text(18).map { Sale.CancelRequest(person: $0, address: text(19) ?? "") },
                finishedAt: date(20), runID: text(21)))
        }
        return sales
    }
}
