import Foundation
import OpenMarketCore

/// Keeps the local catalog copy in step with the API: a full scan through the client core
/// (newest first, `items_per_page=100`), repeated in the background while people use the panel,
/// forced by the `data-refresh` button, and run before a page when the copy is older than
/// `maxAge`. The API offers no "changed since", so every sync reads every page; only what changed
/// is written to disk. One sync at a time: callers that arrive meanwhile wait for it.
/// When the API fails, the copy stays as it was and syncs back off (2 s, 4 s, … 60 s).
actor CatalogSync {
    /// What a page says about the copy it was built from.
    struct Status: Sendable {
        var syncedAt: Date?
        /// The last sync failed: why (a catalog key), and when the next try is due.
        var failure: String?
        var retryAt: Date?
        /// The API's failure behind `failure`, for a page that has no copy to fall back on.
        var error: OpenMarketError?
    }

    static let pageSize = 100
    /// At most this many pages a sync (100,000 products).
    static let maxPages = 1_000

    let copy: CatalogCopy
    /// Where changes become live events (the panel's writes stage theirs, the sync's are sent).
    nonisolated let feed: ProductChangeFeed?
    private let client: OpenMarketClient
    private let database: CatalogDatabase?
    private let now: @Sendable () -> Date
    private let interval: TimeInterval
    private var running: Task<Bool, Never>?
    private var background: Task<Void, Never>?
    private var failure: String?
    private var lastError: OpenMarketError?
    private var failures = 0
    private var retryAt: Date?
    private var lastUse: Date?
    /// Set by `stop`: no background sync starts again.
    private var stopped = false
    /// Figures for the note and the health page: how long the last sync took, what it changed.
    private(set) var lastDuration: TimeInterval?
    private(set) var lastChangeCount = 0

    init(client: OpenMarketClient, copy: CatalogCopy, database: CatalogDatabase?, interval: TimeInterval,
         now: @escaping @Sendable () -> Date, feed: ProductChangeFeed? = nil) {
        self.client = client
        self.copy = copy
        self.feed = feed
        self.database = database
        self.interval = interval
        self.now = now
    }

    var status: Status {
        Status(syncedAt: copy.syncedAt, failure: failure, retryAt: retryAt, error: lastError)
    }

    /// Syncs now (or joins the sync under way). True when the copy is now current.
    @discardableResult
    func sync() async -> Bool {
        if let running { return await running.value }
        let task = Task { await self.scanAndApply() }
        running = task
        let result = await task.value
        running = nil
        return result
    }

    /// A sync that starts after this call (the refresh button): one already under way may have
    /// read its pages before the change the seller expects to see, so it is awaited first.
    @discardableResult
    func syncStartingNow() async -> Bool {
        if let running { _ = await running.value }
        return await sync()
    }

    /// Before a page from the copy: syncs first when the copy is older than `maxAge` (or was never
    /// made), unless a failed sync asked to wait; then the page shows the copy with a warning.
    func ensureFresh(maxAge: TimeInterval) async {
        lastUse = now()
        startBackgroundIfNeeded()
        if let syncedAt = copy.syncedAt, now().timeIntervalSince(syncedAt) <= maxAge { return }
        if let retryAt, now() < retryAt, copy.syncedAt != nil { return }
        await sync()
    }

    /// The panel is being used: keep the copy fresh in the background.
    func touch() {
        lastUse = now()
        startBackgroundIfNeeded()
    }

    /// Stops the background syncs for good and waits for a sync under way, so its writes to the
    /// copy land before the database closes.
    func stop() async {
        stopped = true
        let current = background
        background = nil
        current?.cancel()
        await current?.value
        if let running { _ = await running.value }
    }

    /// Syncs every `interval` (sooner after a failure, with back-off) while someone used a page
    /// in the last ten minutes; an idle panel sends the API nothing.
    private func startBackgroundIfNeeded() {
        guard background == nil, interval > 0, !stopped else { return }
        background = Task { [interval] in
            while !Task.isCancelled {
                let wait = self.nextWait(interval)
                try? await Task.sleep(for: .milliseconds(WholeNumber.milliseconds(wait)))
                if Task.isCancelled { break }
                guard self.recentlyUsed() else { continue }
                await self.sync()
            }
        }
    }

    private func nextWait(_ interval: TimeInterval) -> TimeInterval {
        failures == 0 ? interval : Self.backOff(failures: failures)
    }

    private func recentlyUsed() -> Bool {
        guard let lastUse else { return false }
        return now().timeIntervalSince(lastUse) < 600
    }

    /// 2 s, 4 s, 8 s … at most 60 s after `failures` failed syncs in a row.
    static func backOff(failures: Int) -> TimeInterval {
        min(60, pow(2, Double(min(failures, 6))))
    }

    private func scanAndApply() async -> Bool {
        let started = Date()
        let generation = copy.currentGeneration
        let fetchedAt = now()
        do {
            let (scanned, unreadable) = try await scan()
            let firstSync = copy.syncedAt == nil
            let changes = copy.applySync(scanned, unreadable: unreadable, startedAt: generation, fetchedAt: fetchedAt)
            // The first sync fills an empty copy: nothing there was changed by anyone.
            if !firstSync { feed?.syncFound(changes) }
            try? await database?.persist(changes, syncedAt: fetchedAt)
            failures = 0
            failure = nil
            lastError = nil
            retryAt = nil
            lastChangeCount = changes.upserted.count + changes.deleted.count
            lastDuration = Date().timeIntervalSince(started)
            return true
        } catch {
            failures += 1
            lastError = error as? OpenMarketError
            failure = (error as? OpenMarketError).map { PageFailure($0, retryURL: nil).heading } ?? "catalog_sync_failed"
            retryAt = now().addingTimeInterval(Self.backOff(failures: failures))
            return false
        }
    }

    /// Every page, newest first. When the total changed while reading (a product added or
    /// deleted shifts the pages), reads again, at most three times, so nothing is skipped.
    /// Unreadable products are kept as placeholders, never failing the scan. The page count is
    /// the API's word, so it is bounded by what its total can fill (and by `maxPages`): a hostile
    /// `last_page` cannot keep a sync asking forever.
    private func scan() async throws -> (products: [CatalogProduct], unreadable: [UnreadableProduct]) {
        var attempt = 0
        while true {
            attempt += 1
            let seenAt = now()
            let first = try await client.listProducts(page: 1, itemsPerPage: Self.pageSize)
            var items = first.pages
            var unreadable = first.unreadable
            var lastTotal = first.totalCount
            let pagesForTotal = max(0, first.totalCount) / Self.pageSize + 1
            let lastPage = min(first.lastPage, pagesForTotal, Self.maxPages)
            if lastPage > 1 {
                for page in 2...lastPage {
                    let next = try await client.listProducts(page: page, itemsPerPage: Self.pageSize)
                    items += next.pages
                    unreadable += next.unreadable
                    let empty = next.pages.isEmpty && next.unreadable.isEmpty
                    lastTotal = empty ? lastTotal : next.totalCount
                }
            }
            if lastTotal == first.totalCount || attempt >= 3 {
                return (items.map { CatalogProduct($0, seenAt: seenAt) }, unreadable)
            }
        }
    }
}
