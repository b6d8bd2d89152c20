import HTMLTemplates

/// One section of `/sales` (`data-sales-section="running|upcoming|past"`) and its rows.
struct SalesSectionView: TemplateView {
    var key: String
    var title: String
    var rows: [SaleRowView]

    static let templateFields = ViewFields<SalesSectionView>([
        .text("key") { $0.key },
        .text("title") { $0.title },
        .list("rows") { $0.rows },
        .flag("empty") { $0.rows.isEmpty },
    ])
}
