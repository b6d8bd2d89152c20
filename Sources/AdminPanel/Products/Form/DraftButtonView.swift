import HTMLTemplates

/// The register form's "save as draft" button, and the draft it was opened from (if any).
struct DraftButtonView: TemplateView {
    var id: HiddenValueView?
    var label: String
    static let templateFields: ViewFields<DraftButtonView> = [
        .optionalView("id") { $0.id },
        .text("label") { $0.label },
    ]
}
