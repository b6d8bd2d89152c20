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

/// The rows of a bulk booking (`schedule-discount`): `bulk` rows whose reason is the booked
/// discount and period (or the first refusal), each a catalog key with raw values.
extension SaleActivityDetail {
    /// The bulk row of one booked sale, as raw values so each reader sees it in their language:
    /// "즉시할인 예약 완료 — 10% 할인, 2026년 12월 5일 00:00 ~ …".
    static func bulkBooked(_ sale: Sale) -> ActivityDetail {
        var arguments = ["action_key": "sales_bulk_action", "outcome_key": "bulk_outcome_done", "reason_key": "sales_activity_scheduled",
                         "period_key": "sales_period", "start": ActivityDetail.timeValue(sale.start),
                         "end": ActivityDetail.timeValue(sale.end), "currency": sale.currency.rawValue]
        switch sale.discount {
        case .amount(let amount):
            arguments["discount_key"] = "sales_discount_amount"
            arguments["amount"] = Money.inputValue(amount)
        case .percent(let share):
            arguments["percent"] = Money.inputValue(share)
            if let applied = sale.appliedDiscount {
                arguments["discount_key"] = "sales_discount_percent_applied"
                arguments["amount"] = Money.inputValue(applied)
            } else {
                arguments["discount_key"] = "sales_discount_percent"
            }
        }
        return ActivityDetail("bulk", arguments)
    }

    /// The bulk row of a product the booking refused: its first reason, by its catalog key.
    static func bulkRefused(_ refusal: SaleSections.SaleRefusal) -> ActivityDetail {
        var arguments = ["action_key": "sales_bulk_action", "outcome_key": "bulk_outcome_failed", "currency": refusal.currency.rawValue]
        if let issue = refusal.issues.first, let code = issue.code {
            arguments.merge(issue.arguments) { current, _ in current }
            arguments["reason_key"] = SaleText.issueKey(code)
            if let other = refusal.overlapping {
                arguments["period_key"] = "sales_period"
                arguments["start"] = ActivityDetail.timeValue(other.start)
                arguments["end"] = ActivityDetail.timeValue(other.end)
            }
        }
        return ActivityDetail("bulk", arguments)
    }
}
