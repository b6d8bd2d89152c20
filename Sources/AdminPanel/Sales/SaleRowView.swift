import HTMLTemplates

/// `sale_row.html`: one scheduled discount, the same view on `/sales` and on a product's page.
/// Built by `SaleSections.saleRows`.
struct SaleRowView: TemplateView {
    var id: Int
    var state: String
    var stateLabel: String
    var productName: String
    var productURL: String
    var discount: String
    var period: String
    var startISO: String
    var length: String
    var setBy: String
    var note: TextView?
    var triesCount: Int
    var tries: [TextView]
    var cancel: SaleCancelView?
    /// `/sales?run=…` when a bulk run booked it (its run's sales and "cancel all").
    var runURL: LinkView?

    static let templateFields = ViewFields<SaleRowView>([
        .int("id") { $0.id },
        .text("state") { $0.state },
        .text("state_label") { $0.stateLabel },
        .text("product_name") { $0.productName },
        .text("product_url") { $0.productURL },
        .text("discount") { $0.discount },
        .text("period") { $0.period },
        .text("start_iso") { $0.startISO },
        .text("length") { $0.length },
        .text("set_by") { $0.setBy },
        .optionalView("note") { $0.note },
        .flag("has_tries") { !$0.tries.isEmpty },
        .int("tries_count") { $0.triesCount },
        .list("tries") { $0.tries },
        .optionalView("cancel") { $0.cancel },
        .optionalView("run_url") { $0.runURL },
    ])
}
