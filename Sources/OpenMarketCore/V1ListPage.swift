import Foundation

/// A v1 list page: `{"page":N,"items":[…]}`, 20 products a page, oldest first. The API tells no
/// total: a client knows it reached the end when a page comes back empty.
public struct V1ListPage: Sendable, Equatable, Decodable {
    public static let itemsPerPage = 20

    public var page: Int
    public var items: [V1ListItem]
    /// The items of this page that could not be read (never hiding the readable ones).
    public var unreadable: [UnreadableProduct]

    public init(page: Int, items: [V1ListItem], unreadable: [UnreadableProduct] = []) {
        self.page = page
        self.items = items
        self.unreadable = unreadable
    }

    /// For `JSONDecoder` users: the same reading as `init(reading:)` (see `DecodableModel`).
    public init(from decoder: any Decoder) throws { self = try decoder.readModel(Self.init(reading:)) }

    /// The one decoder of this model's fields.
    init(reading json: JSONObjectReader) throws(OpenMarketError) {
        page = try json.int(V1Keys.page)
        (items, unreadable) = try json.eachProduct(V1Keys.items, idKeys: V1Keys.id) { (item) throws(OpenMarketError) in
            try V1ListItem(reading: item)
        }
    }
}
