import Foundation
import HTMLTemplates
import HTTPServer

/// `GET /activity?person=&action=&product=&page=`: the log, newest first, for every signed-in
/// person (how rows read: `ActivityRows`).
extension ActivityController {
    func activityPage(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let context = context.withFormKey()
        let l = context.localizer
        let person = request.query["person"].map { String($0.prefix(64)) }.flatMap { $0.isEmpty ? nil : $0 }
        let action = request.query["action"].flatMap { ActivityAction.all.contains($0) ? $0 : nil }
        let product = request.query["product"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        let pageNumber = min(10_000, max(1, request.query["page"].flatMap { Int($0) } ?? 1))
        let (rows, hasMore) = try await activity.list(.init(person: person, action: action, productID: product), page: pageNumber)
        let presenter = activityRows.activityPresenter(l, rows: rows)

        func link(page: Int) -> String {
            var items: [String] = []
            if let person { items.append("person=" + ListLinks.encode(person)) }
            if let action { items.append("action=" + action) }
            if let product { items.append("product=\(product)") }
            items.append("page=\(page)")
            return "/activity?" + items.joined(separator: "&")
        }
        let everyone = await people.all.map(\.name)
        var view = ActivityPageView()
        let reverted = (try? await activity.revertedRowIDs(among: rows)) ?? []
        let runs = rows.compactMap { $0.entry.action == "bulk" ? $0.entry.runID : nil }
        let saleRuns = (try? await sales.runSummaries(runs)) ?? [:]
        view.items = activityItems(rows, reverted: reverted, saleRuns: saleRuns, context: context, presenter: presenter)
        view.person = person ?? ""
        view.product = product.map(String.init) ?? ""
        // `local` is who acts while sign-in is off; with sign-in on it is nobody to filter by.
        view.people = ((pages.configuration.signIn ? [] : ["local"]) + everyone).map { ActivityPersonOptionView(name: $0, selected: $0 == person) }
        view.actions = ActivityAction.all.map { ListOptionView(value: $0, label: ActivityAction.label($0, l), chosen: $0 == action) }
        view.newer = pageNumber > 1 ? LinkView(url: link(page: pageNumber - 1)) : nil
        view.older = hasMore ? LinkView(url: link(page: pageNumber + 1)) : nil
        return try pages.page(view, title: l("activity_heading"), context: context, section: .activity)
    }
}
