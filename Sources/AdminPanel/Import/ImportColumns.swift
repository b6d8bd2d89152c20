/// Which column holds which field, found by the header's names (case-insensitive, any order).
/// The export's columns are all understood; `vendor`, `bargain_price`, the dates and
/// `thumbnail_url` are read-only (the API computes or owns them) and ignored, as are columns this
/// panel does not know (a spreadsheet's own notes).
struct ImportColumns: Sendable, Equatable {
    enum Field: String, CaseIterable, Sendable {
        case id, name, description, price, currency, stock, images
        case discountedPrice = "discounted_price"
    }

    static let readOnly: Set<String> = ["vendor", "bargain_price", "created_at", "issued_at", "thumbnail_url"]

    enum Failure: Error, Equatable {
        case duplicate(String)
        case nothingKnown
    }

    private(set) var positions: [Field: Int] = [:]

    init(header: [String]) throws(Failure) {
        for (index, raw) in header.enumerated() {
            let name = CSVReader.unprotected(raw).trimmingCharacters(in: .whitespaces).lowercased()
            guard let field = Field(rawValue: name) else { continue }
            if positions[field] != nil { throw .duplicate(name) }
            positions[field] = index
        }
        if positions.isEmpty { throw .nothingKnown }
    }

    func has(_ field: Field) -> Bool { positions[field] != nil }

    /// The cell of `field` in a record (trimmed, the export's `'` dropped); nil when the file has
    /// no such column, "" when the record is shorter than the header.
    func value(_ field: Field, in cells: [String]) -> String? {
        guard let index = positions[field] else { return nil }
        guard index < cells.count else { return "" }
        let cell = CSVReader.unprotected(cells[index])
        // A description keeps its own line breaks and inner spaces; the edges never matter.
        return cell.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
