import OpenMarketCore
import HTMLTemplates

/// `delete_alternatives.html`, shown before a delete: "stop selling (stock 0)" first (a bulk
/// set-stock of this one product, so it is one revertable activity row), the warning that a
/// restore gives a new product number, and for an editor the owners to ask for the password.
struct DeleteAlternativesView: TemplateView {
    var id: Int
    var csrfToken: String
    /// Not for a sold-out product (nothing to stop) nor in v1 (every change needs the product's password).
    var offersStopSelling: Bool
    var askOwner: String?

    static let templateFields = ViewFields<DeleteAlternativesView>([
        .int("id") { $0.id },
        .text("csrf_token") { $0.csrfToken },
        .flag("stop_selling") { $0.offersStopSelling },
        .optionalView("ask_owner") { $0.askOwner.map(TextView.init) },
    ])
}

extension DeleteAlternativesView {
    /// What to offer before deleting `product`, for the person asking (the product page and the
    /// delete prompt show the same): an editor is told which owners to ask.
    static func offered(for product: ProductDetail, context: PanelContext, people: PeopleStore,
                        dialect: any PanelDialect) async -> DeleteAlternativesView {
        var askOwner: String?
        if context.role == .editor {
            let owners = await people.all.filter { $0.role == .owner && $0.isActive }.map(\.name)
            if !owners.isEmpty {
                askOwner = context.localizer("delete_editor_ask", ["owners": owners.joined(separator: ", ")])
            }
        }
        return DeleteAlternativesView(id: product.id, csrfToken: context.csrfToken,
                                      offersStopSelling: dialect.hasVendor && product.stock > 0,
                                      askOwner: askOwner)
    }
}
