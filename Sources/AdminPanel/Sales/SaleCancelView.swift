import HTMLTemplates

/// A sale row's cancel form, for people who may write while the sale is not over.
struct SaleCancelView: TemplateView {
    var id: Int
    var csrfToken: String
    /// Where the cancel returns (`SalesController.salesBack` checks it again).
    var back: String
    var label: String

    static let templateFields = ViewFields<SaleCancelView>([
        .int("id") { $0.id },
        .text("csrf_token") { $0.csrfToken },
        .text("back") { $0.back },
        .text("label") { $0.label },
    ])
}
