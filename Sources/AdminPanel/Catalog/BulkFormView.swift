import HTMLTemplates

/// The list's bulk form: the page's own products' ids, the actions, and (after a refusal) the
/// values the seller typed (`BulkFormState.view`).
struct BulkFormView: TemplateView {
    var csrfToken: String
    var back: String
    var pageIDs: [BulkPageIDView]
    var actionOptions: [ListOptionView]
    /// Field values by form name (`stock`, `discounted_price`, `amount`, `sale_discount`…), kept after a refusal.
    var values: [String: String]
    var selectAllChecked: Bool

    static let templateFields: ViewFields<BulkFormView> = [
        .text("csrf_token") { $0.csrfToken },
        .text("back") { $0.back },
        .list("page_ids") { $0.pageIDs },
        .list("action_options") { $0.actionOptions },
        .text("stock_value") { $0.values["stock"] ?? "" },
        .text("discount_value") { $0.values["discounted_price"] ?? "" },
        .text("amount_value") { $0.values["amount"] ?? "" },
        .text("sale_discount_value") { $0.values["sale_discount"] ?? "" },
        .text("sale_start_value") { SaleForm.minuteValue($0.values["sale_start"] ?? "") },
        .text("sale_end_value") { SaleForm.minuteValue($0.values["sale_end"] ?? "") },
        .flag("select_all_checked") { $0.selectAllChecked },
    ]
}

/// `<input type="hidden" name="page_ids" value="{{id}}">`
struct BulkPageIDView: TemplateView {
    var id: Int
    static let templateFields: ViewFields<BulkPageIDView> = [.int("id") { $0.id }]
}
