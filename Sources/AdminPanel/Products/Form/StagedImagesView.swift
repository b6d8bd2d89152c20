import HTMLTemplates

/// The images kept after an error (register, and edit in v1), with their remove boxes.
struct StagedImagesView: TemplateView {
    var token: String
    var images: [StagedImageView]
    static let templateFields: ViewFields<StagedImagesView> = [
        .text("token") { $0.token },
        .list("images") { $0.images },
    ]
}

/// One kept image: its preview, name and size, and its position menu.
struct StagedImageView: TemplateView {
    var id: Int
    var src: String
    var filename: String
    var sizeText: String
    var earlierLabel: String
    var laterLabel: String
    var positionLabel: String
    var positions: [PositionOptionView]
    var first: Bool
    static let templateFields: ViewFields<StagedImageView> = [
        .int("id") { $0.id },
        .text("src") { $0.src },
        .text("filename") { $0.filename },
        .text("size_text") { $0.sizeText },
        .text("earlier_label") { $0.earlierLabel },
        .text("later_label") { $0.laterLabel },
        .text("position_label") { $0.positionLabel },
        .list("positions") { $0.positions },
        .flag("first") { $0.first },
    ]
}

/// One choice of a kept image's position menu.
struct PositionOptionView: TemplateView {
    var number: Int
    var selected: Bool
    static let templateFields: ViewFields<PositionOptionView> = [
        .int("number") { $0.number },
        .flag("selected") { $0.selected },
    ]
}
