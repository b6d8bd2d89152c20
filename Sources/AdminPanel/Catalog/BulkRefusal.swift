import Foundation
import HTMLTemplates

/// A bulk request the panel refused before sending anything (nothing ticked, no action, an
/// unreadable value): the list comes back with the seller's work as it was — the same boxes
/// ticked, the same action and values — and the reason as an alert, never a success-looking flash.
struct BulkRefusal: Sendable {
    /// The reason, already in the page's language.
    var message: String
    var tickedIDs: Set<Int>
    var selectAll: Bool
    var action: String
    /// The typed values by field name. The password is never sent back.
    var values: [String: String]

    static let keptFields = ["stock", "discounted_price", "amount", "sale_discount", "sale_start", "sale_end"]

    init(message: String, form: (String) -> String?, ids: [String]) {
        self.message = message
        tickedIDs = Set(ids.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        selectAll = form("select_all") == "1"
        action = form("action") ?? ""
        var values: [String: String] = [:]
        for name in Self.keptFields {
            if let value = form(name) { values[name] = String(value.prefix(40)) }
        }
        self.values = values
    }

    /// Whether the product's box comes back ticked.
    func isTicked(_ id: Int) -> Bool { selectAll || tickedIDs.contains(id) }
}

/// The bulk form's choices and typed values, for a fresh list (defaults) or a refused request.
enum BulkFormState {
    static let actions: [(value: String, label: String)] = [
        ("set-stock", "bulk_action_set_stock"),
        ("set-discount", "bulk_action_set_discount"),
        ("adjust-price", "bulk_action_adjust_price"),
        ("delete", "bulk_action_delete"),
    ]

    /// The scheduled discount (Sales/), offered where the dialect allows it.
    static let saleAction = (value: "schedule-discount", label: "sales_bulk_action")

    static func view(_ refusal: BulkRefusal?, _ l: Localizer, offersSales: Bool,
                     csrfToken: String, back: String, pageIDs: [Int]) -> BulkFormView {
        let chosen = refusal?.action ?? ""
        return BulkFormView(
            csrfToken: csrfToken, back: back,
            pageIDs: pageIDs.map(BulkPageIDView.init),
            actionOptions: (actions + (offersSales ? [saleAction] : [])).map { action in
                ListOptionView(value: action.value, label: l(action.label), chosen: action.value == chosen)
            },
            values: refusal?.values ?? [:],
            selectAllChecked: refusal?.selectAll ?? false)
    }
}
