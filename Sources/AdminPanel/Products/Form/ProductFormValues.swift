import Foundation
import OpenMarketCore

/// The product form's fields exactly as typed (strings), so a form that comes back with errors
/// shows what the seller entered, not a reinterpretation of it.
struct ProductFormValues: Sendable, Equatable {
    var name = ""
    var description = ""
    var price = ""
    var currency = Currency.KRW.rawValue
    var discountedPrice = ""
    var stock = ""
    var thumbnailID = ""

    init() {}

    init(field: (String) -> String?) {
        name = field("name") ?? ""
        description = Self.normalizedNewlines(field("description") ?? "")
        price = (field("price") ?? "").trimmingCharacters(in: .whitespaces)
        currency = (field("currency") ?? "").trimmingCharacters(in: .whitespaces)
        discountedPrice = (field("discounted_price") ?? "").trimmingCharacters(in: .whitespaces)
        stock = (field("stock") ?? "").trimmingCharacters(in: .whitespaces)
        thumbnailID = (field("thumbnail_id") ?? "").trimmingCharacters(in: .whitespaces)
    }

    /// The values of a product as the edit form shows them.
    init(product: ProductDetail, thumbnailID: Int?) {
        // As much as a page shows: the rules allow far less, and a field left as shown is not sent.
        name = DisplayBounds.name(product.name)
        description = DisplayBounds.description(product.description)
        price = Money.inputValue(product.price)
        currency = product.currency.rawValue
        discountedPrice = Money.inputValue(product.discountedPrice)
        stock = String(product.stock)
        self.thumbnailID = thumbnailID.map(String.init) ?? ""
    }

    /// Browsers send CRLF in textareas; the API and the length rules count one character per line break.
    private static func normalizedNewlines(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n")
    }

    struct Parsed: Sendable, Equatable {
        var name: String
        var description: String
        var price: Double
        var currency: Currency
        var discountedPrice: Double
        var stock: Int
        var thumbnailID: Int?

        /// The changes that send just these fields (an edit sends what the seller changed, a
        /// revert what it sets back).
        func changes(_ fields: [EditField]) -> ProductChanges {
            var changes = ProductChanges()
            for field in fields {
                switch field {
                case .name: changes.name = name
                case .description: changes.description = description
                case .price: changes.price = price
                case .currency: changes.currency = currency
                case .discountedPrice: changes.discountedPrice = discountedPrice
                case .stock: changes.stock = stock
                case .thumbnailID: changes.thumbnailID = thumbnailID
                }
            }
            return changes
        }
    }

    /// Numbers and the currency read from the text; issues for what cannot be read. Rule checks
    /// (lengths, ranges) are the core's job and happen after this.
    func parse() -> (parsed: Parsed, issues: [FieldIssue]) {
        var issues: [FieldIssue] = []
        let currencyValue = Currency(rawValue: currency)
        if currencyValue == nil { issues += ProductRules.currencyIssues(currency) }
        let priceValue = Self.number(price)
        if price.isEmpty {
            issues.append(FieldIssue(field: "price", message: "Enter a price.", code: "price_empty"))
        } else if priceValue == nil {
            issues.append(FieldIssue(field: "price", message: "Enter the price as a number, like 12,000.", code: "price_unreadable"))
        }
        let discountValue = discountedPrice.isEmpty ? 0 : Self.number(discountedPrice)
        if discountValue == nil {
            issues.append(FieldIssue(field: "discounted_price", message: "Enter the discount as a number, or leave it empty.",
                                     code: "discount_unreadable"))
        }
        let stockValue = stock.isEmpty ? 0 : Self.wholeNumber(stock)
        if stockValue == nil {
            issues.append(FieldIssue(field: "stock", message: "Enter the stock as a whole number, like 10.", code: "stock_unreadable"))
        }
        var thumbnail: Int?
        if !thumbnailID.isEmpty {
            thumbnail = Int(thumbnailID)
            if thumbnail == nil {
                issues.append(FieldIssue(field: "thumbnail_id", message: "Choose one of this product's images as the thumbnail.",
                                         code: "thumbnail_unknown"))
            }
        }
        let parsed = Parsed(name: name, description: description, price: priceValue ?? .nan,
                            currency: currencyValue ?? .KRW, discountedPrice: discountValue ?? .nan,
                            stock: stockValue ?? 0, thumbnailID: thumbnail)
        return (parsed, issues)
    }

    /// "12,000", "12000", "12.50", "₩12,000", "12,000원" → a finite number (`AmountText`: the
    /// grouping is checked, so "12,00" is refused); anything else → nil.
    static func number(_ text: String) -> Double? {
        AmountText.parse(text)
    }

    /// A stock count, grouped or not ("1,200"); nil for fractions and anything unreadable.
    static func wholeNumber(_ text: String) -> Int? {
        guard let value = AmountText.parse(text), value == value.rounded(), abs(value) <= 1e15 else { return nil }
        return Int(value)
    }

    /// The example amount in the price and discount placeholders: whole won, or dollars and cents.
    static func example(_ currency: String) -> String {
        currency == Currency.USD.rawValue ? "12.50" : "12,000"
    }
}

/// Field issues as the form shows them: one message per field next to it (the first), and a
/// summary at the top listing them all. Issues without a known field go to the summary only.
enum FormIssues {
    static let fieldOrder = ["name", "description", "price", "currency", "discounted_price", "stock", "images", "thumbnail_id", "password"]

    /// The summary (nil without issues) and each known field's messages, joined.
    static func shown(_ issues: [FieldIssue], _ l: Localizer, currency: Currency)
        -> (summary: FormIssueSummaryView?, fieldErrors: [String: String]) {
        guard !issues.isEmpty else { return (nil, [:]) }
        var byField: [String: [String]] = [:]
        for issue in issues { byField[issue.field, default: []].append(l.issue(issue, currency: currency)) }
        var fieldErrors: [String: String] = [:]
        for (field, messages) in byField where fieldOrder.contains(field) {
            fieldErrors[field] = messages.joined(separator: " ")
        }
        let ordered = issues.sorted { rank($0.field) < rank($1.field) }
        let items = ordered.map { issue in
            FormIssueLinkView(fieldID: fieldOrder.contains(issue.field) ? issue.field : "content",
                              message: l.issue(issue, currency: currency))
        }
        return (FormIssueSummaryView(heading: l.plural("form_problems", count: issues.count), items: items), fieldErrors)
    }

    private static func rank(_ field: String) -> Int {
        fieldOrder.firstIndex(of: field) ?? fieldOrder.count
    }
}
