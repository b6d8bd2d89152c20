import HTMLTemplates

/// `bulk_result.html`: the outcome of a bulk action (and of the scheduled discount's bulk form,
/// `Sales/`), one row per selected product in the seller's order.
struct BulkResultView: PageView {
    static let template = "bulk_result"
    var heading: String
    var summary: String
    var rows: [BulkResultRowView]
    /// The list the seller came from (validated by `BackLink`).
    var backURL: String
    /// A bulk 즉시할인's sales on `/sales` (with the run's "cancel all").
    var saleRun: LinkView?
    var access = PageAccess()

    static let templateFields = ViewFields<BulkResultView>([
        .text("heading") { $0.heading },
        .text("summary") { $0.summary },
        .list("rows") { $0.rows },
        .text("back_url") { $0.backURL },
        .optionalView("sale_run") { $0.saleRun },
    ] + PageAccess.fields())
}

/// One product's outcome: done or failed and why, linked to the product while it still exists.
struct BulkResultRowView: TemplateView {
    var id: Int
    var name: String
    var done: Bool
    var reason: String
    var href: String
    var linked: Bool

    static let templateFields: ViewFields<BulkResultRowView> = [
        .int("id") { $0.id },
        .text("name") { $0.name },
        .text("outcome") { $0.done ? "done" : "failed" },
        .flag("done") { $0.done },
        .text("reason") { $0.reason },
        .text("href") { $0.href },
        .flag("linked") { $0.linked },
    ]
}
