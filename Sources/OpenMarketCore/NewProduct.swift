import Foundation

/// A product to register: its fields and its image files.
public struct NewProduct: Sendable, Equatable {
    public var name: String
    public var description: String
    public var price: Double
    public var currency: Currency
    public var discountedPrice: Double
    public var stock: Int
    public var images: [ImageUpload]

    public init(name: String, description: String, price: Double, currency: Currency,
                discountedPrice: Double = 0, stock: Int = 0, images: [ImageUpload]) {
        self.name = name
        self.description = description
        self.price = price
        self.currency = currency
        self.discountedPrice = discountedPrice
        self.stock = stock
        self.images = images
    }

    /// Every broken rule at once, in form order (name, description, price, discounted_price,
    /// stock, images). Empty when the draft can be sent.
    public func validate() -> [FieldIssue] {
        ProductRules.nameIssues(name)
            + ProductRules.descriptionIssues(description)
            + ProductRules.priceIssues(price)
            + ProductRules.fractionIssues(price, field: "price", currency: currency)
            + ProductRules.discountIssues(discountedPrice, price: price)
            + ProductRules.fractionIssues(discountedPrice, field: "discounted_price", currency: currency)
            + ProductRules.stockIssues(stock)
            + ProductRules.imageIssues(images)
    }
}
