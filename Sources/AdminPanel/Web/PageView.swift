import HTMLTemplates

/// A page's view: a `TemplateView` with its template's name. `PageRenderer` compiles every page
/// view listed in `PageRenderer.pageViews` at start-up, once per language, and fills `access`
/// before rendering (the `can_write` / `is_owner` every template may use).
protocol PageView: TemplateView {
    static var template: String { get }
    var access: PageAccess { get set }
}

/// What the visitor's role allows; templates wrap write controls in `{{#can_write}}` and people
/// links in `{{#is_owner}}`.
struct PageAccess: Sendable {
    var canWrite = false
    var isOwner = false

    /// The two fields every page view declares (append them to its table).
    static func fields<View: PageView>() -> [ViewField<View>] {
        [.flag("can_write") { $0.access.canWrite }, .flag("is_owner") { $0.access.isOwner }]
    }
}
