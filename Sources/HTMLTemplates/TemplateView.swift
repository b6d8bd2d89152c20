/// A page, or a part of one, as a plain struct that a compiled template renders.
///
/// The view declares once, in `templateFields`, which names its template may use and how each is
/// read: no reflection, no dictionaries per request. `TemplateSet.compile` checks every name of
/// the template against this table (and the tables of the sections around it) at start-up.
///
///     struct ChipView: TemplateView {
///         var label: String
///         var url: String
///         static let templateFields: ViewFields<ChipView> = [
///             .text("label") { $0.label },
///             .text("url") { $0.url },
///         ]
///     }
public protocol TemplateView: Sendable {
    static var templateFields: ViewFields<Self> { get }
}

/// A view's field table: name → accessor. Built from an array literal; a name declared twice
/// is reported when a template is compiled against the view.
public struct ViewFields<View: TemplateView>: Sendable, ExpressibleByArrayLiteral {
    let byName: [String: ViewField<View>]
    let duplicate: String?

    public init(arrayLiteral fields: ViewField<View>...) {
        self.init(fields)
    }

    public init(_ fields: [ViewField<View>]) {
        var byName: [String: ViewField<View>] = [:]
        var duplicate: String?
        for field in fields {
            if byName[field.name] != nil { duplicate = duplicate ?? field.name }
            byName[field.name] = field
        }
        self.byName = byName
        self.duplicate = duplicate
    }

    /// These fields and `more` (e.g. fields shared by several page views).
    public func adding(_ more: [ViewField<View>]) -> ViewFields<View> {
        ViewFields(Array(byName.values) + more)
    }
}
