import Foundation
import OpenMarketCore

/// The activity rows of scheduled discounts: their actions, and what each row says.
enum SaleActivity {
    static let start = "sale-start"
    static let end = "sale-end"
    static let cancelled = "sale-cancelled"
}

/// What a sale's activity row says: a name and raw values (`activity_detail_<name>` in
/// `sales.*.json`, amounts formatted by each reader's language through `ActivityDetail`).
struct SaleActivityDetail: Sendable, Equatable {
    var name: String
    var arguments: [String: String]

    /// The `detail` column, shown in each reader's language (see `ActivityDetail`).
    var stored: String { ActivityDetail(name, arguments).stored }

    private init(_ name: String, _ sale: Sale, _ extra: [String: String] = [:]) {
        self.name = name
        arguments = ["sale": String(sale.id), "product_name": sale.productName, "currency": sale.currency.rawValue]
            .merging(extra) { $1 }
    }

    static func started(_ sale: Sale, applied: Double) -> Self {
        Self("sale_started", sale, ["amount": SaleScheduler.number(applied)])
    }

    static func cancelledBeforeStart(_ sale: Sale) -> Self {
        Self("sale_cancelled_upcoming", sale)
    }

    /// An end or a cancel of a running sale, by what it did to the product.
    static func finished(_ sale: Sale, cancelled: Bool, action: Sale.FinishAction, note: SaleNote?) -> Self {
        let prefix = cancelled ? "sale_cancelled" : "sale_ended"
        switch note?.key {
        case "sales_note_product_gone":
            return Self(prefix + "_product_gone", sale)
        case "sales_note_restore_refused":
            let earlier = note?.arguments["discount"] ?? ""
            return Self(prefix + "_not_restored", sale, ["discount": earlier])
        default:
            if action == .leave {
                let now = note?.arguments["discount"] ?? ""
                return Self(prefix + "_left_alone", sale, ["discount": now])
            }
            return Self(prefix, sale)
        }
    }
}
