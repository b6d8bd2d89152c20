import Foundation

/// How activity rows read (`/activity` and a product's history on its detail page).
struct ActivityRows: Sendable {
    let configuration: PanelConfiguration
    let catalog: CatalogService
    let activity: ActivityLog

    /// The latest rows about one product, for its detail page (nil when the log cannot be read:
    /// the page still shows the product).
    func productHistory(_ id: Int, _ l: Localizer) async -> ProductHistoryView? {
        guard let (rows, hasMore) = try? await activity.list(.init(productID: id), page: 1, pageSize: 20) else { return nil }
        let presenter = activityPresenter(l, rows: rows)
        return ProductHistoryView(rows: rows.map(presenter.row), more: hasMore ? LinkView(url: "/activity?product=\(id)") : nil)
    }

    /// How rows read for `l`: in the panel's time zone, with the names of the products they are
    /// about as the catalog copy knows them now.
    func activityPresenter(_ l: Localizer, rows: [ActivityRecord]) -> ActivityRowPresenter {
        let ids = Set(rows.compactMap(\.entry.productID))
        var products: [Int: ActivityRowPresenter.Product] = [:]
        if !ids.isEmpty {
            for product in catalog.copy.snapshot().products where ids.contains(product.id) {
                products[product.id] = .init(name: product.name, currency: product.currency)
            }
        }
        return ActivityRowPresenter(localizer: l, timeZone: configuration.timeZone, products: products)
    }
}
