import Foundation
import OpenMarketCore

/// One product's changed cells judged with the edit form's rules (`ProductRules`, amounts read
/// by `AmountText` as sellers type them, KRW in whole won), and the changes they make. `sheet.js`
/// applies the same rules as the seller types; this is the check that counts.
struct SheetCheck: Sendable, Equatable {
    /// The changes of the readable, valid cells (sent only when `issues` is empty).
    var changes = ProductChanges()
    var issues: [FieldIssue] = []

    /// `loaded` is what the cells held when the sheet was shown (the posted `was`, else the copy's
    /// values); a price or discount left alone is judged by it.
    init(_ row: SheetRowInput, changed: [SheetField], currency: Currency, loaded: ProductFormValues) {
        for field in changed {
            let text = row.typed[field] ?? ""
            switch field {
            case .name:
                let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
                let own = ProductRules.nameIssues(name)
                issues += own
                if own.isEmpty { changes.name = name }
            case .price:
                guard !text.isEmpty else {
                    issues.append(FieldIssue(field: "price", message: "Enter a price.", code: "price_empty"))
                    continue
                }
                guard let price = AmountText.parse(text) else {
                    issues.append(FieldIssue(field: "price", message: "Enter the price as a number, like 12,000.", code: "price_unreadable"))
                    continue
                }
                let own = ProductRules.priceIssues(price) + ProductRules.fractionIssues(price, field: "price", currency: currency)
                issues += own
                if own.isEmpty { changes.price = price }
            case .discountedPrice:
                guard let discount = text.isEmpty ? 0 : AmountText.parse(text) else {
                    issues.append(FieldIssue(field: "discounted_price", message: "Enter the discount as a number, or leave it empty.",
                                             code: "discount_unreadable"))
                    continue
                }
                let own = ProductRules.discountIssues(discount)
                    + ProductRules.fractionIssues(discount, field: "discounted_price", currency: currency)
                issues += own
                if own.isEmpty { changes.discountedPrice = discount }
            case .stock:
                guard let stock = text.isEmpty ? 0 : ProductFormValues.wholeNumber(text) else {
                    issues.append(FieldIssue(field: "stock", message: "Enter the stock as a whole number, like 10.", code: "stock_unreadable"))
                    continue
                }
                let own = ProductRules.stockIssues(stock)
                issues += own
                if own.isEmpty { changes.stock = stock }
            }
        }
        // The discount against the price, as the product would be after the save.
        guard changes.price != nil || changes.discountedPrice != nil else { return }
        func loadedAmount(_ field: SheetField) -> Double? {
            let text = row.was[field] ?? loaded[field.editField]
            return text.isEmpty && field == .discountedPrice ? 0 : AmountText.parse(text)
        }
        let price = changes.price ?? (changed.contains(.price) ? nil : loadedAmount(.price))
        let discount = changes.discountedPrice ?? (changed.contains(.discountedPrice) ? nil : loadedAmount(.discountedPrice))
        guard let price, let discount, discount > price else { return }
        if changes.discountedPrice != nil {
            issues += ProductRules.discountIssues(discount, price: price)
            changes.discountedPrice = nil
        } else {
            issues.append(FieldIssue(field: "price", message: "The price cannot be lower than the current discount.",
                                     code: "price_under_discount",
                                     arguments: ["discount": WholeNumber.plainDigits(discount) ?? String(discount)]))
            changes.price = nil
        }
    }
}
