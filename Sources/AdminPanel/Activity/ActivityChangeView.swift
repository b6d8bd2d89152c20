import HTMLTemplates

/// One changed field of an activity row: `data-change="{{field}}"`, its label, old and new value.
struct ActivityChangeView: TemplateView {
    var field: String
    var label: String
    var old: String
    var new: String

    static let templateFields = ViewFields<ActivityChangeView>([
        .text("field") { $0.field },
        .text("label") { $0.label },
        .text("old") { $0.old },
        .text("new") { $0.new },
    ])
}
