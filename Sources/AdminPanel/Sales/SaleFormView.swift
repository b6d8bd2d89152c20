import HTMLTemplates

/// The product page's sale form (`data-sale-form`): kept values and errors after a refused
/// submission (422), empty otherwise.
struct SaleFormView: TemplateView {
    var action: String
    var csrfToken: String
    var discount: String
    var start: String
    var end: String
    var discountHint: String
    var timeHint: String
    var discountError: MessageView?
    var startError: MessageView?
    var endError: MessageView?
    var summary: SaleErrorSummaryView?

    static let templateFields = ViewFields<SaleFormView>([
        .text("action") { $0.action },
        .text("csrf_token") { $0.csrfToken },
        .text("sale_discount") { $0.discount },
        .text("sale_start") { $0.start },
        .text("sale_end") { $0.end },
        .text("discount_hint") { $0.discountHint },
        .text("time_hint") { $0.timeHint },
        .optionalView("sale_discount_error") { $0.discountError },
        .optionalView("sale_start_error") { $0.startError },
        .optionalView("sale_end_error") { $0.endError },
        .optionalView("summary") { $0.summary },
    ])
}
