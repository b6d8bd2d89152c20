import Foundation

/// A v1 list page: `{"page":N,"items":[…]}`, 20 products a page, oldest first. The API tells no
/// total: a client knows it reached the end when a page comes back empty.
public struct V1ListPage: Sendable, Equatable, Decodable {
    public static let itemsPerPage = 20

    public var page: Int
    public var items: [V1ListItem]

    public init(page: Int, items: [V1ListItem]) {
        self.page = page
        self.items = items
    }

    /// For `JSONDecoder` users: the same reading as `init(reading:)` (see `DecodableModel`).
    public init(from decoder: any Decoder) throws { self = try decoder.readModel(Self.init(reading:)) }

    /// The one decoder of this model's fields.
    init(reading json: JSONObjectReader) throws(OpenMarketError) {
        page = try json.int(V1Keys.page)
        var items: [V1ListItem] = []
        for item in try json.objects(V1Keys.items) { items.append(try V1ListItem(reading: item)) }
        self.items = items
    }
}
