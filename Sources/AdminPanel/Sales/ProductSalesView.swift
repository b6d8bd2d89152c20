import HTMLTemplates

/// `product_sales.html`: a product's scheduled discounts on its page (`data-product-sales`) and,
/// for people who may change it, the form. Built by `SaleSections.productSalesSection`.
struct ProductSalesView: TemplateView {
    /// v1: why there are no sales (nothing else shows).
    var unavailable: TextView?
    var rows: [SaleRowView] = []
    var allURL: String
    var form: SaleFormView?

    static let templateFields = ViewFields<ProductSalesView>([
        .optionalView("unavailable") { $0.unavailable },
        .list("rows") { $0.rows },
        .flag("empty") { $0.rows.isEmpty && $0.unavailable == nil },
        .text("all_url") { $0.allURL },
        .optionalView("form") { $0.form },
    ])
}
