/// Which column holds which field, found by the header's names (case-insensitive, any order):
/// the contract's names, or the Korean names sellers write (상품명, 판매가, 재고수량…, spaces
/// inside them ignored). The export's columns are all understood; `vendor`, `bargain_price`, the dates and
/// `thumbnail_url` are read-only (the API computes or owns them) and ignored, as are columns this
/// panel does not know (a spreadsheet's own notes) and every column whose header carries the
/// export for editing's read-only mark (`판매자 (수정 불가)`, `vendor (read-only)`).
struct ImportColumns: Sendable, Equatable {
    enum Field: String, CaseIterable, Sendable {
        case id, name, description, price, currency, stock, images
        case discountedPrice = "discounted_price"
    }

    static let readOnly: Set<String> = ["vendor", "bargain_price", "created_at", "issued_at", "thumbnail_url"]

    /// The Korean names of the fields, as Smart Store's and Wing's sheets and sellers' own files
    /// write them (written without spaces: a header's spaces are ignored when compared).
    static let koreanAliases: [String: Field] = [
        "상품번호": .id,
        "상품명": .name,
        "상세설명": .description, "상품설명": .description,
        "판매가": .price, "가격": .price,
        "통화": .currency,
        "즉시할인금액": .discountedPrice, "즉시할인": .discountedPrice, "할인금액": .discountedPrice,
        "재고수량": .stock, "재고": .stock,
        "이미지": .images, "대표이미지": .images,
    ]

    /// The field a header cell names, if any.
    static func field(named raw: String) -> Field? {
        let name = CSVReader.unprotected(raw).trimmingCharacters(in: .whitespaces).lowercased()
        if let field = Field(rawValue: name) { return field }
        return koreanAliases[name.filter { !$0.isWhitespace }]
    }

    enum Failure: Error, Equatable {
        case duplicate(String)
        case nothingKnown
    }

    private(set) var positions: [Field: Int] = [:]

    init(header: [String]) throws(Failure) {
        for (index, raw) in header.enumerated() {
            guard !EditExportColumns.isMarkedReadOnly(CSVReader.unprotected(raw)), let field = Self.field(named: raw) else { continue }
            if positions[field] != nil { throw .duplicate(CSVReader.unprotected(raw).trimmingCharacters(in: .whitespaces)) }
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
