import Foundation

/// A page of products. v2a spells the page keys in snake_case, v2b in camelCase.
public struct ProductListPage: Sendable, Equatable, Decodable {
    public var pageNo: Int
    public var itemsPerPage: Int
    public var totalCount: Int
    /// `(pageNo - 1) * itemsPerPage`.
    public var offset: Int
    /// The end index `pageNo * itemsPerPage`, not the page size.
    public var limit: Int
    public var lastPage: Int
    public var hasNext: Bool
    public var hasPrev: Bool
    public var pages: [ProductListItem]
    /// The products of this page that could not be read (never hiding the readable ones).
    public var unreadable: [UnreadableProduct]

    public init(pageNo: Int, itemsPerPage: Int, totalCount: Int, offset: Int, limit: Int, lastPage: Int,
                hasNext: Bool, hasPrev: Bool, pages: [ProductListItem], unreadable: [UnreadableProduct] = []) {
        self.pageNo = pageNo
        self.itemsPerPage = itemsPerPage
        self.totalCount = totalCount
        self.offset = offset
        self.limit = limit
        self.lastPage = lastPage
        self.hasNext = hasNext
        self.hasPrev = hasPrev
        self.pages = pages
        self.unreadable = unreadable
    }

    /// What a 204 answer (a page past the end, or an empty result) means: no items. The API does
    /// not tell the real total then, so `totalCount` and `lastPage` are 0.
    public static func empty(pageNo: Int, itemsPerPage: Int) -> ProductListPage {
        ProductListPage(pageNo: pageNo, itemsPerPage: itemsPerPage, totalCount: 0,
                        offset: max(0, (pageNo - 1) * itemsPerPage), limit: max(0, pageNo * itemsPerPage),
                        lastPage: 0, hasNext: false, hasPrev: pageNo > 1, pages: [])
    }

    private static let snakeKeys = ["page_no", "items_per_page", "total_count", "last_page", "has_next", "has_prev"]
    private static let camelKeys = ["pageNo", "itemsPerPage", "totalCount", "lastPage", "hasNext", "hasPrev"]

    /// The spellings to try for page key `i`, the answer's own dialect first. Decided once per
    /// answer, so a missing key is reported in the spelling the answer actually uses.
    private static func pageKeyNames(has: (String) -> Bool) -> (Int) -> [String] {
        let camel = !has("page_no") && (has("pageNo") || has("totalCount"))
        let (preferred, other) = camel ? (camelKeys, snakeKeys) : (snakeKeys, camelKeys)
        return { [preferred[$0], other[$0]] }
    }

    /// For `JSONDecoder` users: the same reading as `init(reading:)` (see `DecodableModel`).
    public init(from decoder: any Decoder) throws { self = try decoder.readModel(Self.init(reading:)) }

    /// The one decoder of this model's fields.
    init(reading json: JSONObjectReader) throws(OpenMarketError) {
        let names = Self.pageKeyNames(has: { json.contains($0) })
        pageNo = try json.int(names(0))
        itemsPerPage = try json.int(names(1))
        totalCount = try json.int(names(2))
        offset = try json.int(APIKeys.offset)
        limit = try json.int(APIKeys.limit)
        lastPage = try json.int(names(3))
        hasNext = try json.bool(names(4))
        hasPrev = try json.bool(names(5))
        (pages, unreadable) = try json.eachProduct(APIKeys.pages, idKeys: APIKeys.id) { (item) throws(OpenMarketError) in
            try ProductListItem(reading: item)
        }
    }
}
