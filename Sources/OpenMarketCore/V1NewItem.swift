import Foundation

/// A v1 product to register (`POST /item`): its fields, its own password and 1–5 images.
/// Money and stock are whole numbers in v1. Issues use the panel's field names (`name` for the
/// title, `description` for `descriptions`).
public struct V1NewItem: Sendable, Equatable {
    public var title: String
    public var descriptions: String
    public var price: Int
    public var currency: Currency
    public var stock: Int
    /// nil sends no discount at all (the item then has none); 0 is kept as 0.
    public var discountedPrice: Int?
    /// The product's password: needed for every later edit and the delete. Never logged.
    public var password: String
    public var images: [ImageUpload]

    public init(title: String, descriptions: String, price: Int, currency: Currency, stock: Int,
                discountedPrice: Int? = nil, password: String, images: [ImageUpload]) {
        self.title = title
        self.descriptions = descriptions
        self.price = price
        self.currency = currency
        self.stock = stock
        self.discountedPrice = discountedPrice
        self.password = password
        self.images = images
    }

    /// Every broken rule at once, in form order; empty when the item can be sent.
    public func validate() -> [FieldIssue] {
        ProductRules.nameIssues(title)
            + ProductRules.descriptionIssues(descriptions)
            + V1Rules.priceIssues(price)
            + V1Rules.discountIssues(discountedPrice, price: price, field: "discounted_price")
            + ProductRules.stockIssues(stock)
            + V1Rules.passwordIssues(password)
            + ProductRules.imageIssues(images)
    }

    /// What a v2-shaped call (no password) gets from a v1 client.
    static let passwordMissing = FieldIssue(field: "password",
        message: "The 2021 API needs the product's password for this; use the v1 calls.")
}

/// A v1 edit (`PATCH /item/{id}`): the password and only the fields that change (`nil` =
/// unchanged). `images`, when given, replace all of the item's images (1–5).
public struct V1ItemChanges: Sendable, Equatable {
    public var title: String?
    public var descriptions: String?
    public var price: Int?
    public var currency: Currency?
    public var stock: Int?
    public var discountedPrice: Int?
    public var images: [ImageUpload]?
    public var password: String

    public init(title: String? = nil, descriptions: String? = nil, price: Int? = nil, currency: Currency? = nil,
                stock: Int? = nil, discountedPrice: Int? = nil, images: [ImageUpload]? = nil, password: String) {
        self.title = title
        self.descriptions = descriptions
        self.price = price
        self.currency = currency
        self.stock = stock
        self.discountedPrice = discountedPrice
        self.images = images
        self.password = password
    }

    /// Every broken rule, judged on the item as it would be after the change when `current`
    /// is given (lowering the price below the current discount is an issue on `price`).
    public func validate(current: V1ItemDetail?) -> [FieldIssue] {
        var issues: [FieldIssue] = []
        if let title { issues += ProductRules.nameIssues(title) }
        if let descriptions { issues += ProductRules.descriptionIssues(descriptions) }
        if let price { issues += V1Rules.priceIssues(price) }
        let newPrice = price ?? current?.price
        let newDiscount = discountedPrice ?? current?.discountedPrice
        if let newDiscount, let newPrice, V1Rules.priceIssues(newPrice).isEmpty {
            issues += V1Rules.discountIssues(newDiscount, price: newPrice,
                                             field: discountedPrice != nil ? "discounted_price" : "price")
        } else if let discountedPrice, discountedPrice < 0 {
            issues += V1Rules.discountIssues(discountedPrice, price: nil, field: "discounted_price")
        }
        if let stock { issues += ProductRules.stockIssues(stock) }
        issues += V1Rules.passwordIssues(password)
        if let images { issues += ProductRules.imageIssues(images) }
        return issues
    }
}

/// The v1 rules that differ from v2's: whole-number money and the product password.
public enum V1Rules {
    public static let passwordLength = 1...100

    public static func priceIssues(_ price: Int) -> [FieldIssue] {
        price >= 1 ? [] : [FieldIssue(field: "price", message: "The price must be more than 0.", code: "price_not_positive")]
    }

    /// 0 ≤ discount ≤ price; `field` is where a discount above the price is reported.
    public static func discountIssues(_ discount: Int?, price: Int?, field: String) -> [FieldIssue] {
        guard let discount else { return [] }
        if discount < 0 {
            return [FieldIssue(field: "discounted_price", message: "The discount cannot be negative.", code: "discount_negative")]
        }
        if let price, discount > price {
            return [field == "price"
                ? FieldIssue(field: "price", message: "The price cannot be lower than the current discount (\(discount)).",
                             code: "price_under_discount", arguments: ["discount": "\(discount)"])
                : FieldIssue(field: "discounted_price", message: "The discount cannot be more than the price (\(price)).",
                             code: "discount_over_price", arguments: ["price": "\(price)"])]
        }
        return []
    }

    public static func passwordIssues(_ password: String) -> [FieldIssue] {
        if password.isEmpty {
            return [FieldIssue(field: "password", message: "Enter the product's password.", code: "password_empty")]
        }
        if password.count > passwordLength.upperBound {
            return [FieldIssue(field: "password",
                               message: "The password can be at most \(passwordLength.upperBound) characters.",
                               code: "password_too_long", arguments: ["max": "\(passwordLength.upperBound)"])]
        }
        return TextRules.controlCharacterIssues(password, field: "password")
    }
}
