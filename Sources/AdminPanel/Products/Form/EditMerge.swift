import Foundation

/// The fields of the edit form, in form order.
enum EditField: String, CaseIterable, Sendable {
    case name, description, currency, price, discountedPrice = "discounted_price", stock, thumbnailID = "thumbnail_id"

    /// The catalog key of the field's label.
    var labelKey: String {
        switch self {
        case .discountedPrice: "field_discount"
        case .thumbnailID: "field_thumbnail"
        default: "field_" + rawValue
        }
    }
}

/// Three versions of an edit form — as it was opened, as the person typed it ("yours"), as the
/// API has it now — and the rules that keep everyone's work: save only what you changed, and
/// after a conflict never write back a field someone else changed that you did not touch.
enum EditMerge {
    /// Whether two texts of `field` mean the same value ("12000" and "12,000.0" do; an empty
    /// discount is 0; an unreadable number compares as typed).
    static func same(_ field: EditField, _ a: String, _ b: String) -> Bool {
        switch field {
        case .price, .discountedPrice:
            let empty: Double? = field == .discountedPrice ? 0 : nil
            let x = a.isEmpty ? empty : ProductFormValues.number(a)
            let y = b.isEmpty ? empty : ProductFormValues.number(b)
            guard let x, let y else { return a == b }
            return x == y
        case .stock:
            let x = a.isEmpty ? 0 : Int(a), y = b.isEmpty ? 0 : Int(b)
            guard let x, let y else { return a == b }
            return x == y
        case .thumbnailID:
            // A form opened without a known thumbnail cannot say it changed.
            return a.isEmpty || b.isEmpty || a == b
        case .name:
            return a.trimmingCharacters(in: .whitespacesAndNewlines) == b.trimmingCharacters(in: .whitespacesAndNewlines)
        case .description, .currency:
            return a == b
        }
    }

    /// The fields that differ between two versions, in form order.
    static func differences(_ a: ProductFormValues, _ b: ProductFormValues) -> [EditField] {
        EditField.allCases.filter { !same($0, a[$0], b[$0]) }
    }

    /// What the person changed: the only fields a save sends.
    static func changeSet(yours: ProductFormValues, opened: ProductFormValues) -> [EditField] {
        differences(yours, opened)
    }

    /// What someone else changed on the API since the form was opened.
    static func conflicts(opened: ProductFormValues, now: ProductFormValues) -> [EditField] {
        differences(opened, now)
    }

    /// The form shown after a conflict: the fields you changed keep your values; every other field
    /// takes the API's current value. With `now` as the new "opened", saving it again sends only
    /// your changes — so confirming cannot revert what someone else changed.
    static func merged(yours: ProductFormValues, opened: ProductFormValues, now: ProductFormValues) -> ProductFormValues {
        let mine = Set(changeSet(yours: yours, opened: opened))
        var result = now
        for field in mine { result[field] = yours[field] }
        return result
    }
}

extension ProductFormValues {
    subscript(field: EditField) -> String {
        get {
            switch field {
            case .name: name
            case .description: description
            case .currency: currency
            case .price: price
            case .discountedPrice: discountedPrice
            case .stock: stock
            case .thumbnailID: thumbnailID
            }
        }
        set {
            switch field {
            case .name: name = newValue
            case .description: description = newValue
            case .currency: currency = newValue
            case .price: price = newValue
            case .discountedPrice: discountedPrice = newValue
            case .stock: stock = newValue
            case .thumbnailID: thumbnailID = newValue
            }
        }
    }
}
