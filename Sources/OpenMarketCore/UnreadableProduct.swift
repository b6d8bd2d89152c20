import Foundation

/// A product in a list answer that could not be read (a price beyond any number, a name sent as
/// a number, a date that is no date…). The page keeps it as this placeholder instead of failing
/// whole, so one odd product never hides the others.
public struct UnreadableProduct: Sendable, Equatable, Hashable {
    /// The product's id, when that much could be read.
    public var id: Int?
    /// The member that could not be read, as the answer spells it (`price`; "" when the item is
    /// not even an object).
    public var field: String
    public var reason: String

    public init(id: Int?, field: String, reason: String) {
        self.id = id
        self.field = field
        self.reason = reason
    }

    /// The placeholder for an item whose reading failed with `error`; `itemPath` is the item's
    /// own path (`pages[3]`), cut from the error's path so `field` is the member's name. `item`
    /// is the item's reader when it is an object at all.
    init(_ item: JSONObjectReader?, itemPath: String, error: OpenMarketError, idKeys: [String]) {
        var id: Int?
        if let item {
            for key in idKeys {
                if let (number, integer) = item.numberMember(key) {
                    id = integer ?? Int(exactly: number)
                    break
                }
            }
        }
        var field = ""
        var reason = error.description
        if case .undecodable(let path, let why) = error {
            reason = why
            field = path.hasPrefix(itemPath + ".") ? String(path.dropFirst(itemPath.count + 1)) : ""
        }
        // Bounded: a hostile reason (it quotes a prefix of the value) never makes a page large.
        self.init(id: id, field: String(field.prefix(100)), reason: String(reason.prefix(200)))
    }
}

extension JSONObjectReader {
    /// Each element of a list of products read on its own: the readable ones, and a placeholder
    /// for each one that is not. Paths are written out only for the unreadable ones.
    func eachProduct<Item>(_ names: [String], idKeys: [String],
                           _ read: (JSONObjectReader) throws(OpenMarketError) -> Item)
        throws(OpenMarketError) -> (items: [Item], unreadable: [UnreadableProduct]) {
        var items: [Item] = []
        var unreadable: [UnreadableProduct] = []
        try forEachElement(names) { (start, location) throws(OpenMarketError) in
            var reader: JSONObjectReader?
            do throws(OpenMarketError) {
                reader = try self.reader(valueAt: start, location: location)
                items.append(try read(reader!))
            } catch {
                unreadable.append(UnreadableProduct(reader, itemPath: location.text, error: error, idKeys: idKeys))
            }
            return reader?.end
        }
        return (items, unreadable)
    }
}
