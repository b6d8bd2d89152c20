import HTMLTemplates

/// `sales.html`: the scheduled discounts in sections (running, upcoming, past), the filters,
/// or why there are none. Built by `SalesController.salesPage`.
struct SalesPageView: PageView {
    static let template = "sales"
    var intro: String
    var product = ""
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
        .list("states") { $0.states },
        .optionalView("clear") { $0.clear },
        .optionalView("unavailable") { $0.unavailable },
        .list("sections") { $0.sections },
        .optionalView("empty") { $0.empty },
    ] + PageAccess.fields())
}
