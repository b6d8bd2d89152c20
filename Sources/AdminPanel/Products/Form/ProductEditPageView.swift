import HTMLTemplates

/// `product_edit.html`: the edit form under the product's name.
struct ProductEditPageView: ProductFormPage {
    static let template = "product_edit"
    var form: ProductFormView
    var productID: Int
    var heading: String
    var access = PageAccess()

    static let templateFields = ViewFields<ProductEditPageView>([
        .int("product_id") { $0.productID },
        .text("edit_heading") { $0.heading },
    ] + ProductFormView.fields() + PageAccess.fields())
}
