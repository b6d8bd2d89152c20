import Foundation

/// A partial edit (PATCH). `nil` means "unchanged"; images cannot change, only which one is the
/// thumbnail.
public struct ProductChanges: Sendable, Equatable {
    public var name: String?
    public var description: String?
    public var thumbnailID: Int?
    public var price: Double?
    public var currency: Currency?
    public var discountedPrice: Double?
    public var stock: Int?

    public init(name: String? = nil, description: String? = nil, thumbnailID: Int? = nil,
                price: Double? = nil, currency: Currency? = nil, discountedPrice: Double? = nil,
                stock: Int? = nil) {
        self.name = name
        self.description = description
        self.thumbnailID = thumbnailID
        self.price = price
        self.currency = currency
        self.discountedPrice = discountedPrice
        self.stock = stock
    }

    public var isEmpty: Bool {
        name == nil && description == nil && thumbnailID == nil && price == nil
            && currency == nil && discountedPrice == nil && stock == nil
    }

    /// Every broken rule, judged on the product as it would be after the change: lowering the
    /// price below the current discount is an issue on `price`. Without `current`, only the
    /// changed values are checked (and price against discount when both change).
    public func validate(current: ProductDetail?) -> [FieldIssue] {
        var issues: [FieldIssue] = []
        if let name { issues += ProductRules.nameIssues(name) }
        if let description { issues += ProductRules.descriptionIssues(description) }
        // Fractions are judged in the currency the product will have (KRW: whole won). Without
        // `current` or a new currency, an amount is judged as won only when it cannot be dollars either.
        let newCurrency = currency ?? current?.currency
        if let price {
            issues += ProductRules.priceIssues(price)
            issues += ProductRules.fractionIssues(price, field: "price", currency: newCurrency ?? .USD)
        }
        if let discountedPrice {
            issues += ProductRules.discountIssues(discountedPrice)
            issues += ProductRules.fractionIssues(discountedPrice, field: "discounted_price", currency: newCurrency ?? .USD)
        }
        if price != nil || discountedPrice != nil,
           let newPrice = price ?? current?.price, let newDiscount = discountedPrice ?? current?.discountedPrice,
           ProductRules.priceIssues(newPrice).isEmpty, ProductRules.discountIssues(newDiscount).isEmpty,
           newDiscount > newPrice {
            issues.append(discountedPrice != nil
                ? ProductRules.discountOverPrice(newPrice) : ProductRules.priceUnderDiscount(newDiscount))
        }
        if let stock { issues += ProductRules.stockIssues(stock) }
        if let thumbnailID {
            let known = current.map { $0.images.contains { $0.id == thumbnailID } } ?? (thumbnailID > 0)
            if !known {
                issues.append(FieldIssue(field: "thumbnail_id",
                                         message: "Choose one of this product's images as the thumbnail.",
                                         code: "thumbnail_unknown"))
            }
        }
        return issues
    }
}
