import HTMLTemplates

/// `product_new.html`: the register form (also duplicate, and a draft opened again).
struct ProductNewPageView: ProductFormPage {
    static let template = "product_new"
    var form: ProductFormView
    var access = PageAccess()

    static let templateFields = ViewFields<ProductNewPageView>(ProductFormView.fields() + PageAccess.fields())
}
