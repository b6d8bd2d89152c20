import Foundation
import OpenMarketCore

/// Runs one bulk action over many products. The API has no bulk endpoint, so each product is its
/// own call (two for a delete, a read and a write for a price change), at most `concurrency` at a
/// time; one product's failure is that product's outcome and never stops the rest. A delete's
/// vendor password is proven by the first product's delete before any other is tried: a wrong one
/// stops the whole action with nothing deleted.
struct BulkRunner: Sendable {
    struct Outcome: Sendable, Equatable {
        var id: Int
        var name: String
        var done: Bool
        /// A catalog key and its values, rendered in the reader's language.
        var reason: String
        var arguments: [String: String] = [:]
        /// The product as the API has it afterwards (nil: deleted or unchanged).
        var updated: ProductDetail?
        var deleted = false
        /// Each field the action changed, old → new (the activity row's, for reverting the run).
        var changes: [ActivityEntry.FieldChange] = []
    }

    enum Stop: Error { case wrongPassword }

    let writer: ProductWriter
    let concurrency: Int
    /// Counts products in flight; tests read the peak to see the bound hold.
    let gauge: ConcurrencyGauge
    /// Who runs the action (the trash says who deleted; the run's rows name them).
    let requester: ProductWriter.Requester

    func run(_ action: BulkSelection.Action, on products: [CatalogProduct]) async throws(Stop) -> [Outcome] {
        var outcomes: [Outcome] = []
        var rest = products[...]
        if case .delete = action {
            // Until one delete gets past the password, try them one by one.
            while let product = rest.popFirst() {
                let outcome = await apply(action, to: product)
                if outcome.reason == "bulk_reason_wrong_password" { throw .wrongPassword }
                outcomes.append(outcome)
                if outcome.done || outcome.reason == "bulk_reason_not_found" { break }
            }
        }
        let others = await BoundedConcurrency.map(Array(rest), limit: concurrency) { product in
            await self.apply(action, to: product)
        }
        return outcomes + others
    }

    private func apply(_ action: BulkSelection.Action, to product: CatalogProduct) async -> Outcome {
        gauge.enter()
        defer { gauge.leave() }
        var outcome = Outcome(id: product.id, name: DisplayBounds.name(product.name), done: false, reason: "")
        do throws(OpenMarketError) {
            switch action {
            case .delete(let password):
                do throws(ProductWriter.DeleteFailure) {
                    _ = try await writer.delete(product.id, password: password, by: requester, note: nil)
                } catch {
                    switch error {
                    case .notKept(let failure):
                        outcome.reason = "safety_bulk_reason_not_kept"
                        outcome.arguments = ["reason": Self.describe(failure)]
                        return outcome
                    case .refused(let refusal):
                        throw refusal
                    }
                }
                outcome.deleted = true
                outcome.reason = "bulk_reason_deleted"
            case .setStock(let stock):
                outcome.updated = try await writer.update(product.id, ProductChanges(stock: stock), by: requester, note: nil)
                // The stock the seller's list showed before (the runner does not read each product).
                outcome.changes = [.init(field: "stock", old: String(product.stock), new: String(stock))]
                outcome.reason = "bulk_reason_stock_set"
                outcome.arguments = ["stock": String(stock)]
            case .setDiscount(let discount):
                let current = try await writer.client.product(id: product.id)
                guard discount <= current.price else {
                    outcome.reason = "bulk_reason_discount_above_price"
                    outcome.arguments = ["discount": Money.format(discount, current.currency),
                                         "price": Money.format(current.price, current.currency)]
                    return outcome
                }
                let rounded = PriceAdjustment.rounded(discount, current.currency)
                let changes = ProductChanges(discountedPrice: rounded)
                outcome.updated = try await writer.update(product.id, changes, by: requester, note: nil)
                outcome.changes = changes.activityChanges(from: current, thumbnailID: nil)
                outcome.reason = "bulk_reason_discount_set"
                outcome.arguments = ["discount": Money.format(rounded, current.currency)]
            case .adjustPrice(let adjustment):
                let current = try await writer.client.product(id: product.id)
                guard let result = adjustment.apply(price: current.price, discountedPrice: current.discountedPrice,
                                                    currency: current.currency) else {
                    outcome.reason = "bulk_reason_price_not_positive"
                    return outcome
                }
                var changes = ProductChanges(price: result.price)
                if result.discountClamped { changes.discountedPrice = result.discountedPrice }
                outcome.updated = try await writer.update(product.id, changes, by: requester, note: nil)
                outcome.changes = changes.activityChanges(from: current, thumbnailID: nil)
                outcome.reason = result.discountClamped ? "bulk_reason_price_set_discount_lowered" : "bulk_reason_price_set"
                outcome.arguments = ["old": Money.format(current.price, current.currency),
                                     "new": Money.format(result.price, current.currency),
                                     "discount": Money.format(result.discountedPrice, current.currency)]
            }
            outcome.done = true
        } catch .unauthorized {
            outcome.reason = "bulk_reason_wrong_password"
        } catch .notFound {
            outcome.reason = "bulk_reason_not_found"
            outcome.deleted = true
        } catch .forbidden {
            outcome.reason = "bulk_reason_not_yours"
        } catch {
            outcome.reason = "bulk_reason_api"
            outcome.arguments = ["reason": error.description]
        }
        return outcome
    }
}

extension BulkRunner {
    /// A keep failure in English for the result row's reason (the row's key is translated).
    static func describe(_ failure: KeepThenDelete.KeepFailure) -> String {
        switch failure {
        case .imageUnreadable(let name): "image \(name) could not be read"
        case .diskFull: "the disk is full"
        case .storage: "the trash could not be written"
        }
    }
}

/// How many products a bulk action works on at once, and the most seen.
final class ConcurrencyGauge: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var peakValue = 0

    func enter() {
        lock.withLock {
            current += 1
            peakValue = max(peakValue, current)
        }
    }

    func leave() { lock.withLock { current -= 1 } }

    var peak: Int { lock.withLock { peakValue } }
}
