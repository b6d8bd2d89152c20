import HTMLTemplates

/// `sale_run_cancel.html`: the "cancel all" form of a bulk 즉시할인 run (`data-cancel-run`), on
/// `/sales` and on the run's group in `/activity`, for people who may write while a sale of the run
/// is still scheduled or running. Its label and confirmation say how many.
struct SaleRunCancelView: TemplateView {
    var run: String
    var csrfToken: String
    /// Where the cancel returns (`SalesController.runCancelBack` checks it again).
    var back: String
    var open: Int
    var label: String
    var confirm: String

    static let templateFields = ViewFields<SaleRunCancelView>([
        .text("run") { $0.run },
        .text("csrf_token") { $0.csrfToken },
        .text("back") { $0.back },
        .int("open") { $0.open },
        .text("label") { $0.label },
        .text("confirm") { $0.confirm },
    ])
}
