/// A parsed template: a tree of nodes, built once at start. Tags keep their line so that the
/// typed compiler (`TemplateCompiler`) can name `file.html:line` when a view lacks a field.
indirect enum TemplateNode: Sendable {
    case text(String)
    /// `{{name}}`, `{{{name}}}` or `{{& name}}`: all escaped unless the value is trusted HTML.
    case variable(path: [String], line: Int)
    /// `{{#name}}…{{/name}}` or, inverted, `{{^name}}…{{/name}}`.
    case section(path: [String], inverted: Bool, children: [TemplateNode], line: Int)
    /// `{{> name}}`
    case partial(String, line: Int)
}
