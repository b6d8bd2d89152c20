import Foundation
import OpenMarketCore

/// What a bulk form asked for, checked before anything is sent: the action and its value, and
/// the selected ids split into the products this panel may change and the ones it refuses
/// (another vendor's, or unknown) — those are reported as failed and never sent to the API.
struct BulkSelection: Sendable {
    static let maxIDs = 100

    enum Action: Sendable, Equatable {
        case delete(password: String)
        case setStock(Int)
        case setDiscount(Double)
        case adjustPrice(PriceAdjustment)

        var name: String {
            switch self {
            case .delete: "delete"
            case .setStock: "set-stock"
            case .setDiscount: "set-discount"
            case .adjustPrice: "adjust-price"
            }
        }
    }

    enum Problem: Error, Equatable {
        case nothingSelected
        case tooMany(Int)
        /// The action or its value is missing or unreadable (a catalog key).
        case invalid(String)
    }

    /// The selected ids, in the order given, without repeats. Values that are not ids are dropped
    /// (they still count toward the limit, so a flood of junk cannot pass it).
    static func ids(_ values: [String]) throws(Problem) -> [Int] {
        guard values.count <= maxIDs else { throw .tooMany(values.count) }
        var seen = Set<Int>()
        let ids = values.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.filter { $0 > 0 && seen.insert($0).inserted }
        guard !ids.isEmpty else { throw .nothingSelected }
        return ids
    }

    static func action(_ value: (String) -> String?) throws(Problem) -> Action {
        switch value("action") ?? "" {
        case "delete":
            let password = value("password") ?? ""
            guard !password.isEmpty else { throw .invalid("bulk_error_password") }
            return .delete(password: password)
        case "set-stock":
            guard let text = value("stock"), let amount = AmountText.parse(text), amount == amount.rounded(),
                  amount >= 0, amount <= 1_000_000_000 else { throw .invalid("bulk_error_stock") }
            let stock = WholeNumber.clamped(amount)
            return .setStock(stock)
        case "set-discount":
            guard let text = value("discounted_price"), let discount = ProductFormValues.number(text),
                  discount >= 0, discount <= PriceAdjustment.maxAmount else { throw .invalid("bulk_error_discount") }
            return .setDiscount(discount)
        case "adjust-price":
            guard let adjustment = PriceAdjustment.parse(value("amount") ?? "") else { throw .invalid("bulk_error_amount") }
            return .adjustPrice(adjustment)
        default:
            throw .invalid("bulk_error_action")
        }
    }

    /// Splits ids into the products to change and the refused ones with their reason (a key).
    static func partition(_ ids: [Int], in snapshot: CatalogSnapshot, ownVendorID: Int?)
        -> (allowed: [CatalogProduct], refused: [(id: Int, reason: String)]) {
        let byID = Dictionary(snapshot.products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var allowed: [CatalogProduct] = []
        var refused: [(id: Int, reason: String)] = []
        for id in ids {
            guard let product = byID[id] else { refused.append((id, "bulk_reason_unknown")); continue }
            guard let ownVendorID, product.vendorID == ownVendorID else { refused.append((id, "bulk_reason_not_yours")); continue }
            allowed.append(product)
        }
        return (allowed, refused)
    }
}
