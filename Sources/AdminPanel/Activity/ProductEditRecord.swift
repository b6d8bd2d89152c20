import OpenMarketCore

extension ProductChanges {
    /// Each field this change sets, old → new, for the activity log (API field names; prices as
    /// plain numbers, so the log reads the same in every language).
    func activityChanges(from current: ProductDetail, thumbnailID currentThumbnail: Int?) -> [ActivityEntry.FieldChange] {
        var out: [ActivityEntry.FieldChange] = []
        func number(_ value: Double) -> String {
            WholeNumber.plainDigits(value) ?? String(value)
        }
        if let name { out.append(.init(field: "name", old: current.name, new: name)) }
        if let description { out.append(.init(field: "description", old: current.description, new: description)) }
        if let price { out.append(.init(field: "price", old: number(current.price), new: number(price))) }
        if let currency { out.append(.init(field: "currency", old: current.currency.rawValue, new: currency.rawValue)) }
        if let discountedPrice {
            out.append(.init(field: "discounted_price", old: number(current.discountedPrice), new: number(discountedPrice)))
        }
        if let stock { out.append(.init(field: "stock", old: String(current.stock), new: String(stock))) }
        if let thumbnailID {
            out.append(.init(field: "thumbnail_id", old: currentThumbnail.map(String.init) ?? "", new: String(thumbnailID)))
        }
        return out
    }
}
