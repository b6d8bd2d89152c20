import HTMLTemplates

/// One of the product's images on the edit form, as a thumbnail choice.
struct ThumbnailChoiceView: TemplateView {
    var id: Int
    /// Nil when the image's address is not one the panel shows (`MediaLinks`): an empty `src`.
    var src: String?
    var label: String
    var checked: Bool
    var first: Bool
    static let templateFields: ViewFields<ThumbnailChoiceView> = [
        .int("id") { $0.id },
        .optionalText("src") { $0.src },
        .text("label") { $0.label },
        .flag("checked") { $0.checked },
        .flag("first") { $0.first },
    ]
}
