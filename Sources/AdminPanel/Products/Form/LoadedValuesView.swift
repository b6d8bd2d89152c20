import HTMLTemplates

/// The edit form's hidden copy of the values it was opened with (for the stale-write check).
struct LoadedValuesView: TemplateView {
    var values: ProductFormValues
    static let templateFields: ViewFields<LoadedValuesView> = [
        .text("name") { $0.values.name },
        .text("description") { $0.values.description },
        .text("price") { $0.values.price },
        .text("currency") { $0.values.currency },
        .text("discounted_price") { $0.values.discountedPrice },
        .text("stock") { $0.values.stock },
        .text("thumbnail_id") { $0.values.thumbnailID },
    ]
}
