import HTMLTemplates

/// One image of the detail page's gallery and its thumbnail strip (`image-{{number}}`,
/// `data-gallery-thumb="{{index}}"`). A source `/media` cannot serve shows as no address.
struct ProductImageView: TemplateView {
    var index: Int
    var source: String?
    var thumbnailSource: String?
    var alt: String
    var caption: String
    var thumbnailAlt: String
    var isThumbnail: Bool

    static let templateFields = ViewFields<ProductImageView>([
        .int("index") { $0.index },
        .int("number") { $0.index + 1 },
        .optionalText("src") { $0.source },
        .optionalText("full_src") { $0.source },
        .optionalText("thumb_src") { $0.thumbnailSource },
        .text("alt") { $0.alt },
        .text("caption") { $0.caption },
        .text("thumb_alt") { $0.thumbnailAlt },
        .flag("lazy") { $0.index > 0 },
        .flag("is_thumbnail") { $0.isThumbnail },
    ])
}
