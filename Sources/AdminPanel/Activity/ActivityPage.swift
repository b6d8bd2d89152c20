import Foundation
import HTMLTemplates
import HTTPServer

/// `GET /activity?person=&action=&product=&page=`: the log, newest first, for every signed-in
/// person; and the rows a product's detail page shows in its `data-history` section.
extension PanelApp {
    func activityPage(_ request: HTTPRequest) async throws -> HTTPResponse {
        let visit = await visit(request)
        let l = visit.localizer
        let person = request.query["person"].map { String($0.prefix(64)) }.flatMap { $0.isEmpty ? nil : $0 }
        let action = request.query["action"].flatMap { ActivityAction.all.contains($0) ? $0 : nil }
        let product = request.query["product"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        let pageNumber = min(10_000, max(1, request.query["page"].flatMap { Int($0) } ?? 1))
        let (rows, hasMore) = try await activity.list(.init(person: person, action: action, productID: product), page: pageNumber)

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
            "rows": .list(rows.map { activityRow($0, l) }),
            "items": .list(activityItems(rows, visit: visit)),
            "empty": .bool(rows.isEmpty),
            "person": .string(person ?? ""),
            "product": .string(product.map(String.init) ?? ""),
            "people": .list((["local"] + everyone).map { name in
                .object(["name": .string(name), "selected": .bool(name == person)])
            }),
            "actions": .list(ActivityAction.all.map { name in
                .object(["value": .string(name), "label": .string(l(ActivityAction.labelKey(name))), "selected": .bool(name == action)])
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
        return .object([
            "rows": .list(rows.map { activityRow($0, l) }),
            "empty": .bool(rows.isEmpty),
            "more": hasMore ? .object(["url": .string("/activity?product=\(id)")]) : .null,
        ])
    }

    func activityRow(_ record: ActivityRecord, _ l: Localizer) -> TemplateValue {
        let entry = record.entry
        let iso = ISO8601DateFormatter.string(from: record.time, timeZone: TimeZone(identifier: "UTC")!,
                                              formatOptions: [.withInternetDateTime])
        return .object([
            "action": .string(entry.action),
            "action_label": .string(l(ActivityAction.labelKey(entry.action))),
            "person": .string(entry.person.isEmpty ? l("activity_unknown_person") : entry.person),
            "address": .string(entry.address),
            "time": .string(l.date(record.time) + " " + Self.clockTime(record.time)),
            "time_iso": .string(iso),
            "product": entry.productID.map { .object(["id": .int($0), "url": .string("/products/\($0)")]) } ?? .null,
            "detail": entry.detail.map { .object(["text": .string($0)]) } ?? .null,
            "changes": .list(entry.changes.map { change in
                .object(["field": .string(change.field), "old": .string(change.old), "new": .string(change.new)])
            }),
            "has_changes": .bool(!entry.changes.isEmpty),
        ])
    }
}
