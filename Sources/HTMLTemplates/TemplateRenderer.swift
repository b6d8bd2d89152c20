/// Walks parsed nodes against a context stack (innermost last), mustache style:
/// a name is looked up from the innermost context outwards.
struct TemplateRenderer {
    let templates: [String: [TemplateNode]]
    var stack: [TemplateValue]
    private var depth = 0

    init(templates: [String: [TemplateNode]], stack: [TemplateValue]) {
        self.templates = templates
        self.stack = stack
    }

    /// Deep enough for any sane page; stops a partial that includes itself forever.
    private static let maximumDepth = 64
    /// Far beyond any real page (the list of 100 products is ~150 KB): partials that include each
    /// other inside loops multiply, and such a template bug should fail, not take the process's memory.
    static let maximumOutputBytes = 8 * 1024 * 1024

    mutating func render(_ nodes: [TemplateNode], into output: inout String) throws(TemplateError) {
        guard depth < Self.maximumDepth else {
            throw TemplateError(template: "", line: 0, reason: "templates nest deeper than \(Self.maximumDepth) levels")
        }
        depth += 1
        defer { depth -= 1 }
        for node in nodes {
            guard output.utf8.count <= Self.maximumOutputBytes else {
                throw TemplateError(template: "", line: 0, reason: "the page grew beyond \(Self.maximumOutputBytes) bytes")
            }
            switch node {
            case .text(let text):
                output += text
            case .variable(let path, _):
                // Only trusted HTML is written raw, whatever the braces say: a plain string in
                // `{{{ }}}` is still escaped, so a template typo cannot open an XSS hole.
                let value = lookup(path)
                if case .trustedHTML(let html) = value {
                    output += html
                } else {
                    HTMLEscaping.append(value.text, to: &output)
                }
            case .section(let path, let inverted, let children, _):
                let value = lookup(path)
                if inverted {
                    if !value.isTruthy { try render(children, into: &output) }
                    continue
                }
                guard value.isTruthy else { continue }
                if case .list(let items) = value {
                    for item in items { try renderPushing(item, children, into: &output) }
                } else {
                    try renderPushing(value, children, into: &output)
                }
            case .partial(let name, _):
                try render(templates[name] ?? [], into: &output)
            }
        }
    }

    private mutating func renderPushing(_ value: TemplateValue, _ nodes: [TemplateNode], into output: inout String) throws(TemplateError) {
        stack.append(value)
        defer { stack.removeLast() }
        try render(nodes, into: &output)
    }

    private func lookup(_ path: [String]) -> TemplateValue {
        guard let first = path.first else { return stack.last ?? .null }
        for context in stack.reversed() {
            guard var value = context[first] else { continue }
            for key in path.dropFirst() {
                guard let next = value[key] else { return .null }
                value = next
            }
            return value
        }
        return .null
    }
}
