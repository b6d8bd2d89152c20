import HTMLTemplates

/// One item of the activity list: a single row or a bulk run (exactly one of the two).
struct ActivityItemView: TemplateView {
    var row: ActivityRowView?
    var run: ActivityRunView?

    static let templateFields = ViewFields<ActivityItemView>([
        .optionalView("row") { $0.row },
        .optionalView("run") { $0.run },
    ])
}
