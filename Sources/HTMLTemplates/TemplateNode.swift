/// A parsed template: a tree of nodes, built once at start.
indirect enum TemplateNode: Sendable {
    case text(String)
    /// `{{name}}`, `{{{name}}}` or `{{& name}}`: all escaped unless the value is trusted HTML.
    case variable(path: [String])
    /// `{{#name}}…{{/name}}` or, inverted, `{{^name}}…{{/name}}`.
    case section(path: [String], inverted: Bool, children: [TemplateNode])
    /// `{{> name}}`
    case partial(String)
}
