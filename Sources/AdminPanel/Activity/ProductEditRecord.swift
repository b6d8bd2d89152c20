import OpenMarketCore

extension ProductChanges {
    /// Each field this change sets, old → new, for the activity log (API field names; prices as
    /// plain numbers, so the log reads the same in every language).
    func activityChanges(from current: ProductDetail, thumbnailID currentThumbnail: Int?) -> [FieldChange] {
        var out: [FieldChange] = []
        func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
        if let name { out.append(FieldChange(field: "name", old: current.name, new: name)) }
        if let description { out.append(FieldChange(field: "description", old: current.description, new: description)) }
        if let price { out.append(FieldChange(field: "price", old: number(current.price), new: number(price))) }
        if let currency { out.append(FieldChange(field: "currency", old: current.currency.rawValue, new: currency.rawValue)) }
        if let discountedPrice {
            out.append(FieldChange(field: "discounted_price", old: number(current.discountedPrice), new: number(discountedPrice)))
        }
        if let stock { out.append(FieldChange(field: "stock", old: String(current.stock), new: String(stock))) }
        if let thumbnailID {
            out.append(FieldChange(field: "thumbnail_id", old: currentThumbnail.map(String.init) ?? "", new: String(thumbnailID)))
        }
        return out
    }
}
