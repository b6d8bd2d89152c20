/// The columns of the export for editing (`/products/export-edit.csv`, `.xlsx`): the fields the
/// import changes first, under the names the import reads (Korean on a Korean page, the
/// contract's names in English), then what the API computes or owns, each header marked
/// read-only. The import skips a marked column whatever its name, so a seller who types into one
/// changes nothing, and the marked headers need no alias of their own.
enum EditExportColumns {
    struct Column: Sendable, Equatable {
        /// The contract's name (the CSV export's and the import's).
        var name: String
        var korean: String
        var readOnly: Bool
    }

    static let all: [Column] = [
        Column(name: "id", korean: "상품번호", readOnly: false),
        Column(name: "name", korean: "상품명", readOnly: false),
        Column(name: "description", korean: "상세설명", readOnly: false),
        Column(name: "price", korean: "판매가", readOnly: false),
        Column(name: "currency", korean: "통화", readOnly: false),
        Column(name: "discounted_price", korean: "즉시할인 금액", readOnly: false),
        Column(name: "stock", korean: "재고수량", readOnly: false),
        Column(name: "vendor", korean: "판매자", readOnly: true),
        Column(name: "bargain_price", korean: "할인가", readOnly: true),
        Column(name: "created_at", korean: "등록일", readOnly: true),
        Column(name: "issued_at", korean: "수정일", readOnly: true),
        // Not "대표 이미지": that is the import's alias of `images`.
        Column(name: "thumbnail_url", korean: "대표 이미지 주소", readOnly: true),
    ]

    /// The mark after a read-only header's name, by language.
    static func readOnlyMark(_ language: Language) -> String {
        switch language {
        case .ko: " (수정 불가)"
        case .en: " (read-only)"
        }
    }

    /// The marks as the import compares them: lowercased, without spaces.
    static let foldedReadOnlyMarks = Language.allCases.map { fold(readOnlyMark($0)) }

    static func header(_ language: Language) -> [String] {
        all.map { column in
            let name = language == .ko ? column.korean : column.name
            return column.readOnly ? name + readOnlyMark(language) : name
        }
    }

    static var readOnlyIndexes: Set<Int> {
        Set(all.indices.filter { all[$0].readOnly })
    }

    /// True for a header the export marked read-only (`판매자 (수정 불가)`, `vendor (read-only)`),
    /// however its spaces and letter case were changed.
    static func isMarkedReadOnly(_ header: String) -> Bool {
        let folded = fold(header)
        return foldedReadOnlyMarks.contains { folded.hasSuffix($0) }
    }

    private static func fold(_ text: String) -> String {
        text.lowercased().filter { !$0.isWhitespace }
    }
}
