import HTMLTemplates

/// `product.html`: one product with every image, every field, its scheduled discounts, its
/// history and, for people who may change it, the edit / delete / duplicate controls. The
/// product's part comes from `ProductPresenter.detail`, the rest from `detailPage`.
struct ProductDetailView: PageView {
    static let template = "product"
    var id: Int
    var name: String
    var description: String
    var soldBy: String
    var galleryLabel: String
    var deleteHeading: String
    var currency: String
    var stockNumber: String
    var stockText: String
    var soldOut: Bool
    var price: ListPrice
    var discount: String
    var images: [ProductImageView]
    var created: String
    var createdISO: String
    var issued: String
    var issuedISO: String
    var canManage = false
    var history: ProductHistoryView?
    var sales: ProductSalesView?
    var csrfToken = ""
    var deleteAlternatives: DeleteAlternativesView?
    var backURL = "/products"
    var back: LinkView?
    var editURL = ""
    var deleteURL = ""
    var duplicateURL = ""
    var access = PageAccess()

    static let templateFields = ViewFields<ProductDetailView>([
        .int("id") { $0.id },
        .text("name") { $0.name },
        .text("description") { $0.description },
        .text("sold_by") { $0.soldBy },
        .text("gallery_label") { $0.galleryLabel },
        .text("delete_heading") { $0.deleteHeading },
        .text("currency") { $0.currency },
        .text("stock_number") { $0.stockNumber },
        .text("stock_text") { $0.stockText },
        .flag("sold_out") { $0.soldOut },
        .flag("discounted") { $0.price.discounted },
        .text("original_price") { $0.price.original },
        .text("price") { $0.price.current },
        .text("discount") { $0.discount },
        .list("images") { $0.images },
        .flag("has_many_images") { $0.images.count > 1 },
        .text("created") { $0.created },
        .text("created_iso") { $0.createdISO },
        .text("issued") { $0.issued },
        .text("issued_iso") { $0.issuedISO },
        .flag("can_manage") { $0.canManage },
        .optionalView("history") { $0.history },
        .optionalView("sales") { $0.sales },
        .text("csrf_token") { $0.csrfToken },
        .optionalView("delete_alternatives") { $0.deleteAlternatives },
        .text("back_url") { $0.backURL },
        .optionalView("back") { $0.back },
        .text("edit_url") { $0.editURL },
        .text("delete_url") { $0.deleteURL },
        .text("duplicate_url") { $0.duplicateURL },
        // No notice is shown on this page today; the template keeps the slot.
        .optionalView("alert") { _ in MessageView?.none },
    ] + PageAccess.fields())
}
