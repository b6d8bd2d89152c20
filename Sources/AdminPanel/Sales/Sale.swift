import Foundation
import OpenMarketCore

/// One scheduled discount as stored in `DATA/panel.sqlite` (table `sales`).
///
/// Its life: `scheduled` → `running` → `ended`, or `cancelled`, or `failed` (the API refused the
/// start for good). A transition that talks to the API is first *recorded* (`pending`, with what
/// it will do) and *completed* afterwards in one transaction with its activity row; a panel killed
/// in between finds the recorded step at its next start and finishes it. The API writes are
/// idempotent (the same `discounted_price` again), the activity row is written by the completing
/// transaction only, so every transition happens exactly once.
struct Sale: Sendable, Equatable {
    enum State: String, Sendable, CaseIterable {
        case scheduled, running, ended, cancelled, failed

        var isFinal: Bool { self == .ended || self == .cancelled || self == .failed }

        /// `sales_state_scheduled`…
        var labelKey: String { "sales_state_" + rawValue }
    }

    /// A transition that calls the API.
    enum Step: String, Sendable {
        case start, end, cancel

        /// `sales_step_start`…
        var labelKey: String { "sales_step_" + rawValue }
    }

    /// What ending (or cancelling) a running sale decided, recorded before it acts: put the
    /// earlier discount back, or leave a product whose discount someone changed meanwhile.
    enum FinishAction: String, Sendable {
        case restore, leave
    }

    var id: Int
    var productID: Int
    var productName: String
    var currency: Currency
    var discount: SaleDiscount
    var start: Date
    var end: Date
    var createdBy: String
    var createdAt: Date
    var state: State
    var pending: Step?
    var finishAction: FinishAction?
    /// The product's discount before the sale (recorded at the start).
    var earlierDiscount: Double?
    /// The sale's discount in money as set on the product (a percentage of the price at the start).
    var appliedDiscount: Double?
    /// Why a sale ended the way it did, or the last failure: a catalog key and its values.
    var note: SaleNote?
    /// Failed tries of the current step, and when the next one is due.
    var attempts: Int
    var nextTryAt: Date?
    /// Who asked to cancel (the cancel happens when no other step of the sale is under way).
    var cancelRequest: CancelRequest?
    /// When the sale reached its final state.
    var finishedAt: Date?
    /// The bulk run that booked it, if any (`SaleRuns`).
    var runID: String?

    struct CancelRequest: Sendable, Equatable {
        var person: String
        var address: String
    }

    var period: ClosedRange<Date> { start...max(start, end) }

    /// When the sale next needs the scheduler: its start, its end, a retry, or now for a step under way.
    var dueAt: Date? {
        guard !state.isFinal else { return nil }
        let natural: Date
        if pending != nil || cancelRequest != nil {
            natural = .distantPast
        } else {
            natural = state == .scheduled ? start : end
        }
        return max(natural, nextTryAt ?? .distantPast)
    }
}

/// A sentence about a sale shown on `/sales` (`data-sale-note`): a key of `sales.*.json` and its values.
struct SaleNote: Sendable, Equatable, Codable {
    var key: String
    var arguments: [String: String] = [:]
}

/// One try of a step against the API, shown on `/sales` (each retry is visible).
struct SaleTry: Sendable, Equatable {
    var saleID: Int
    var at: Date
    var step: Sale.Step
    /// What went wrong, as the client core worded it (English; no secret ever appears in it).
    var failure: String
}
