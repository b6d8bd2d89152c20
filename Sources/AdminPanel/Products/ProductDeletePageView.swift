import HTMLTemplates

/// `product_delete.html`: the password prompt for deleting without JavaScript, with its
/// messages (an empty or wrong password, the attempts locked for a while).
struct ProductDeletePageView: PageView {
    static let template = "product_delete"
    var id: Int
    var back: LinkView?
    var productURL: String
    var cancelURL: String
    var heading: String
    var summary: String
    var trashNote: TextView
    /// Present when the product has images; its `src` empty when the panel cannot show it.
    var thumbnail: ImageSourceView?
    var csrfToken: String
    var alert: MessageView?
    var passwordError: MessageView?
    var locked: MessageView?
    var deleteAlternatives: DeleteAlternativesView?
    var access = PageAccess()

    static let templateFields = ViewFields<ProductDeletePageView>([
        .int("id") { $0.id },
        .optionalView("back") { $0.back },
        .text("product_url") { $0.productURL },
        .text("cancel_url") { $0.cancelURL },
        .text("delete_heading") { $0.heading },
        .text("summary") { $0.summary },
        .view("trash_note") { $0.trashNote },
        .optionalView("thumbnail") { $0.thumbnail },
        .text("csrf_token") { $0.csrfToken },
        .optionalView("alert") { $0.alert },
        .optionalView("password_error") { $0.passwordError },
        .optionalView("locked") { $0.locked },
        .optionalView("delete_alternatives") { $0.deleteAlternatives },
    ] + PageAccess.fields())
}
