import Foundation
import HTTPServer
import OpenMarketCore

/// Turns product changes into live events (`LiveStreams`), from two narrow places:
///
/// - The panel's own writes: every one updates the catalog copy (`ProductWriter`, for the sale
///   scheduler too), which `stage`s the product here, and then records its activity row, which
///   names the action and the person. The row publishes the event with the copy's product as
///   it is now (`null` once deleted). Rows without a staged change (a failed bulk row, a
///   scheduled discount not started yet) send nothing; sale rows always do.
/// - The catalog copy's sync, and a page that re-reads a product (the product page, a refused
///   edit): what they find changed by other API clients, `"by": null`.
final class ProductChangeFeed: Sendable {
    /// The actions that change a product (`ActivityAction`), with `sheet` (a sheet save's run).
    static let productActions: Set<String> = ["register", "edit", "sheet", "bulk", "import", "delete", "restore",
                                              "revert", "sale-start", "sale-end", "sale-cancelled"]
    /// A staged change waits this long for its activity row (an edit's row follows at once).
    private static let stagingWindow: TimeInterval = 30
    /// More changes than this in one sync: the pages reload instead of taking them one by one.
    static let maxSyncEvents = 200

    let streams: LiveStreams
    private let copy: CatalogCopy
    private let describe: @Sendable (CatalogProduct) -> LiveProduct
    private let now: @Sendable () -> Date
    /// Products the panel changed whose activity row has not come yet: id → when, one per change.
    private let staged = Locked<[Int: [Date]]>([:])

    init(streams: LiveStreams, copy: CatalogCopy, now: @escaping @Sendable () -> Date,
         describe: @escaping @Sendable (CatalogProduct) -> LiveProduct) {
        self.streams = streams
        self.copy = copy
        self.now = now
        self.describe = describe
    }

    /// The panel wrote product `id` (the copy holds its new state, or no longer holds it).
    func stage(_ id: Int) {
        let time = now()
        staged.withLock { waiting in
            waiting[id, default: []].append(time)
            if waiting.count > 1_000 {
                waiting = waiting.filter { $0.value.contains { time.timeIntervalSince($0) < Self.stagingWindow } }
            }
        }
    }

    /// An activity row was stored: a product change it describes becomes one event.
    func recorded(_ entry: ActivityEntry) {
        guard Self.productActions.contains(entry.action), let id = entry.productID else { return }
        let time = now()
        let wasStaged = staged.withLock { waiting -> Bool in
            var times = waiting[id, default: []].filter { time.timeIntervalSince($0) < Self.stagingWindow }
            defer { waiting[id] = times.isEmpty ? nil : times }
            guard !times.isEmpty else { return false }
            times.removeFirst()
            return true
        }
        guard wasStaged || entry.action.hasPrefix("sale-") else { return }
        publish(id: id, action: entry.action, by: entry.person)
    }

    /// What a sync found changed by someone else.
    func syncFound(_ changes: CatalogCopy.Changes) {
        guard !changes.isEmpty else { return }
        guard changes.upserted.count + changes.deleted.count <= Self.maxSyncEvents else { return streams.publishReset() }
        for product in changes.upserted {
            publish(id: product.id, action: changes.added.contains(product.id) ? "register" : "edit", by: nil)
        }
        for id in changes.deleted { publish(id: id, action: "delete", by: nil) }
    }

    /// A page found product `id` changed or deleted by another API client (a re-read).
    func foundChanged(_ id: Int) {
        publish(id: id, action: copy.product(id: id) == nil ? "delete" : "edit", by: nil)
    }

    private func publish(id: Int, action: String, by person: String?) {
        let product = copy.product(id: id).map(describe)
        let event = LiveProductEvent(id: id, action: action, by: person, at: now(), product: product)
        guard let data = try? JSONEncoder().encode(event) else { return }
        streams.publishProduct(Array(data))
    }
}
