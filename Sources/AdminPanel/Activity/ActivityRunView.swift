import HTMLTemplates

/// `activity_run.html`: the rows of one bulk run, grouped (`data-bulk-run`), with the run's revert form.
struct ActivityRunView: TemplateView {
    var id: String
    var label: String
    var rows: [ActivityRowView]
    var revert: RevertFormView?
    /// Every row of the run that could be reverted was: marked, and no second revert is offered.
    var reverted = false
    /// A bulk 즉시할인 run: its sales on `/sales`, and "cancel all" while one is still open.
    var sales: LinkView?
    var cancelSales: SaleRunCancelView?

    static let templateFields = ViewFields<ActivityRunView>([
        .text("id") { $0.id },
        .text("label") { $0.label },
        .list("rows") { $0.rows },
        .optionalView("revert") { $0.revert },
        .flag("reverted") { $0.reverted },
        .optionalView("sales") { $0.sales },
        .optionalView("cancel_sales") { $0.cancelSales },
    ])
}
