/// A template that cannot be parsed or rendered; the description names the file and line.
public struct TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    public var template: String
    public var line: Int
    public var reason: String

    public var description: String {
        line > 0 ? "\(template).html:\(line): \(reason)" : "\(template): \(reason)"
    }
}
