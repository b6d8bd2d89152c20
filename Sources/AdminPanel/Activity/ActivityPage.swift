import Foundation
import HTMLTemplates
import HTTPServer

/// `GET /activity?person=&action=&product=&page=`: the log, newest first, for every signed-in
/// person; and the rows a product's detail page shows in its `data-history` section.
extension ActivityController {
    func activityPage(_ request: HTTPRequest) async throws -> HTTPResponse {
        let visit = await visit(request)
        let l = visit.localizer
        let person = request.query["person"].map { String($0.prefix(64)) }.flatMap { $0.isEmpty ? nil : $0 }
        let action = request.query["action"].flatMap { ActivityAction.all.contains($0) ? $0 : nil }
        let product = request.query["product"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        let pageNumber = min(10_000, max(1, request.query["page"].flatMap { Int($0) } ?? 1))
        let (rows, hasMore) = try await activity.list(.init(person: person, action: action, productID: product), page: pageNumber)
        let view = activityView(l, rows: rows)

        func link(page: Int) -> String {
            var items: [String] = []
            if let person { items.append("person=" + ListLinks.encode(person)) }
            if let action { items.append("action=" + action) }
            if let product { items.append("product=\(product)") }
            items.append("page=\(page)")
            return "/activity?" + items.joined(separator: "&")
        }
        let everyone = await people.all.map(\.name)
        let context: [String: TemplateValue] = [
            "rows": .list(rows.map(view.row)),
            "items": .list(activityItems(rows, visit: visit, view: view)),
            "empty": .bool(rows.isEmpty),
            "person": .string(person ?? ""),
            "product": .string(product.map(String.init) ?? ""),
            "people": .list((["local"] + everyone).map { name in
                .object(["name": .string(name), "selected": .bool(name == person)])
            }),
            "actions": .list(ActivityAction.all.map { name in
                .object(["value": .string(name), "label": .string(ActivityAction.label(name, l)), "selected": .bool(name == action)])
            }),
            "newer": pageNumber > 1 ? .object(["url": .string(link(page: pageNumber - 1))]) : .null,
            "older": hasMore ? .object(["url": .string(link(page: pageNumber + 1))]) : .null,
            "page_number": .int(pageNumber),
        ]
        return try page("activity", title: l("activity_heading"), context: context, visit: visit, section: .activity)
    }

    /// The latest rows about one product, for its detail page (nil when the log cannot be read:
    /// the page still shows the product).
    func productHistory(_ id: Int, _ l: Localizer) async -> TemplateValue {
        guard let (rows, hasMore) = try? await activity.list(.init(productID: id), page: 1, pageSize: 20) else { return .null }
        let view = activityView(l, rows: rows)
        return .object([
            "rows": .list(rows.map(view.row)),
            "empty": .bool(rows.isEmpty),
            "more": hasMore ? .object(["url": .string("/activity?product=\(id)")]) : .null,
        ])
    }

    /// How rows read for `l`: in the panel's time zone, with the names of the products they are
    /// about as the catalog copy knows them now.
    func activityView(_ l: Localizer, rows: [ActivityRecord]) -> ActivityRowView {
        let ids = Set(rows.compactMap(\.entry.productID))
        var products: [Int: ActivityRowView.Product] = [:]
        if !ids.isEmpty {
            for product in catalog.copy.snapshot().products where ids.contains(product.id) {
                products[product.id] = .init(name: product.name, currency: product.currency)
            }
        }
        return ActivityRowView(localizer: l, timeZone: configuration.timeZone, products: products)
    }
}
