import Foundation
import OpenMarketCore

/// The activity rows of scheduled discounts: their actions, and what each row says.
enum SaleActivity {
    static let start = "sale-start"
    static let end = "sale-end"
    static let cancelled = "sale-cancelled"
}

/// What a sale's activity row says: a name and raw values (`activity_detail_<name>` in
/// `sales.*.json`, amounts formatted by the reader's language), and the same in English.
///
/// `stored` is the English sentence on this branch. Where the activity log stores translated
/// details (`ActivityDetail`), it becomes `ActivityDetail(name, arguments).stored`: the texts are
/// already in the catalogs.
struct SaleActivityDetail: Sendable, Equatable {
    var name: String
    var arguments: [String: String]
    var english: String

    var stored: String { english }

    private init(_ name: String, _ sale: Sale, _ extra: [String: String] = [:], english: String) {
        self.name = name
        arguments = ["sale": String(sale.id), "product_name": sale.productName, "currency": sale.currency.rawValue]
            .merging(extra) { $1 }
        self.english = english
    }

    static func started(_ sale: Sale, applied: Double) -> Self {
        Self("sale_started", sale, ["amount": SaleScheduler.number(applied)],
             english: "Scheduled discount #\(sale.id) started: \(SaleScheduler.number(applied)) off.")
    }

    static func cancelledBeforeStart(_ sale: Sale) -> Self {
        Self("sale_cancelled_upcoming", sale, english: "Scheduled discount #\(sale.id) was cancelled before it started.")
    }

    /// An end or a cancel of a running sale, by what it did to the product.
    static func finished(_ sale: Sale, cancelled: Bool, action: Sale.FinishAction, note: SaleNote?) -> Self {
        let verb = cancelled ? "was cancelled" : "ended"
        let prefix = cancelled ? "sale_cancelled" : "sale_ended"
        switch note?.key {
        case "sales_note_product_gone":
            return Self(prefix + "_product_gone", sale, english: "Scheduled discount #\(sale.id) \(verb); the product no longer exists.")
        case "sales_note_restore_refused":
            let earlier = note?.arguments["discount"] ?? ""
            return Self(prefix + "_not_restored", sale, ["discount": earlier],
                        english: "Scheduled discount #\(sale.id) \(verb); the earlier discount (\(earlier)) could not be put back.")
        default:
            if action == .leave {
                let now = note?.arguments["discount"] ?? ""
                return Self(prefix + "_left_alone", sale, ["discount": now],
                            english: "Scheduled discount #\(sale.id) \(verb); its discount had been changed meanwhile (now \(now)), "
                                + "so the product was left as it is.")
            }
            return Self(prefix, sale, english: "Scheduled discount #\(sale.id) \(verb); the earlier discount is back.")
        }
    }
}
