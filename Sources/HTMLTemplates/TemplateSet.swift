import Foundation

/// Every `*.html` file of a folder (and its subfolders), parsed once at start.
/// A template is named by its path without `.html`, e.g. `list` or `partials/product-card`.
public struct TemplateSet: Sendable {
    private let templates: [String: [TemplateNode]]

    public var names: [String] { templates.keys.sorted() }

    public init(directory: URL) throws {
        var sources: [String: String] = [:]
        let root = directory.standardizedFileURL.resolvingSymlinksInPath()
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw TemplateError(template: directory.path, line: 0, reason: "folder cannot be read")
        }
        for case let file as URL in walker where file.pathExtension == "html" {
            let full = file.resolvingSymlinksInPath().path
            let relative = String(full.dropFirst(root.path.count + 1).dropLast(".html".count))
            sources[relative] = try String(contentsOf: file, encoding: .utf8)
        }
        try self.init(sources: sources)
    }

    /// Templates from memory; used by tests and by `init(directory:)`.
    public init(sources: [String: String]) throws {
        var parsed: [String: [TemplateNode]] = [:]
        for (name, source) in sources {
            parsed[name] = try TemplateParser(name: name, source: source).parse()
        }
        templates = parsed
        // A missing partial is a start-up error, not a blank hole in a page later.
        for (name, nodes) in parsed {
            if let missing = Self.firstPartial(in: nodes, where: { parsed[$0] == nil }) {
                throw TemplateError(template: name, line: 0, reason: "partial '\(missing)' does not exist")
            }
        }
    }

    /// `name` compiled for `View` in one language (`strings` are its `{{t.key}}` texts). Every
    /// name the template (and its partials) uses must be a field of `View` or of the view of an
    /// enclosing section; otherwise this throws `file.html:line: …`. Call it at start-up.
    public func compile<View: TemplateView>(_ name: String, as _: View.Type,
                                            strings: [String: String]) throws(TemplateError) -> TemplateProgram<View> {
        guard let nodes = templates[name] else {
            throw TemplateError(template: name, line: 0, reason: "no such template")
        }
        var compiler = TemplateCompiler(templates: templates, strings: strings)
        let block = try compiler.block(nodes, as: View.self, CompileContext(template: name, level: 0, outer: [], depth: 0))
        return TemplateProgram(name: name, block: block)
    }

    private static func firstPartial(in nodes: [TemplateNode], where isMissing: (String) -> Bool) -> String? {
        for node in nodes {
            switch node {
            case .partial(let name, _) where isMissing(name): return name
            case .section(_, _, let children, _):
                if let found = firstPartial(in: children, where: isMissing) { return found }
            default: continue
            }
        }
        return nil
    }
}
