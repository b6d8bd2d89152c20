import HTMLTemplates

/// `sales.html`: the scheduled discounts in sections (running, upcoming, past), the filters,
/// or why there are none. Built by `SalesController.salesPage`.
struct SalesPageView: PageView {
    static let template = "sales"
    var intro: String
    var product = ""
    /// The bulk run the page is filtered by (`?run=`), kept by the filter form.
    var run = ""
    /// Bulk runs with a sale still open (or the filtered run), each with its "cancel all".
    var runs: [SaleRunView] = []
    var states: [ListOptionView] = []
    var clear: LinkView?
    var unavailable: TextView?
    var sections: [SalesSectionView] = []
    var empty: TextView?
    var access = PageAccess()

    init(intro: String) { self.intro = intro }

    static let templateFields = ViewFields<SalesPageView>([
        .text("intro") { $0.intro },
        .text("product") { $0.product },
        .text("run") { $0.run },
        .flag("filtered_by_run") { !$0.run.isEmpty },
        .list("runs") { $0.runs },
        .flag("has_runs") { !$0.runs.isEmpty },
        .list("states") { $0.states },
        .optionalView("clear") { $0.clear },
        .optionalView("unavailable") { $0.unavailable },
        .list("sections") { $0.sections },
        .optionalView("empty") { $0.empty },
    ] + PageAccess.fields())
}
