import Foundation
import OpenMarketCore

/// The columns a sheet edits, in their order on screen (a subset of the edit form's fields).
enum SheetField: String, CaseIterable, Sendable {
    case name, price, discountedPrice = "discounted_price", stock

    var editField: EditField {
        switch self {
        case .name: .name
        case .price: .price
        case .discountedPrice: .discountedPrice
        case .stock: .stock
        }
    }
}

/// One product's row as a sheet posts it: each column's text as typed and as loaded ("was").
/// A column the browser did not send (with JS only changed cells are sent) is absent from both.
struct SheetRowInput: Sendable, Equatable {
    var id: Int
    var typed: [SheetField: String] = [:]
    var was: [SheetField: String] = [:]

    /// The columns whose typed text means another value than the loaded one (`EditMerge.same`:
    /// `12000` and `12,000` are one value). A column without its loaded value is compared with
    /// the product as the catalog copy has it.
    func changedFields(loaded: ProductFormValues?) -> [SheetField] {
        SheetField.allCases.filter { field in
            guard let text = typed[field] else { return false }
            guard let before = was[field] ?? loaded?[field.editField] else { return true }
            return !Self.same(field, text, before)
        }
    }

    /// Whether two texts of a column mean one value: the edit form's rule (`EditMerge.same`),
    /// with stock read as sellers type it too (`1,200` is 1200).
    static func same(_ field: SheetField, _ a: String, _ b: String) -> Bool {
        if field == .stock, let x = a.isEmpty ? 0 : ProductFormValues.wholeNumber(a),
           let y = b.isEmpty ? 0 : ProductFormValues.wholeNumber(b) {
            return x == y
        }
        return EditMerge.same(field.editField, a, b)
    }

    /// Every row of a posted sheet: fields named `{id}.{field}` and `{id}.was.{field}`; anything
    /// else is ignored. Rows come back in the order their first field was posted.
    static func rows(_ fields: [(name: String, value: String)]) -> [SheetRowInput] {
        var order: [Int] = []
        var rows: [Int: SheetRowInput] = [:]
        for (name, value) in fields {
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2 || (parts.count == 3 && parts[1] == "was"),
                  let id = Int(parts[0]), id > 0, String(id) == parts[0],
                  let field = SheetField(rawValue: String(parts[parts.count - 1])) else { continue }
            if rows[id] == nil {
                rows[id] = SheetRowInput(id: id)
                order.append(id)
            }
            let text = field == .name ? value.replacingOccurrences(of: "\r\n", with: "\n") : value.trimmingCharacters(in: .whitespaces)
            if parts.count == 2 { rows[id]?.typed[field] = text } else { rows[id]?.was[field] = text }
        }
        return order.compactMap { rows[$0] }
    }
}
