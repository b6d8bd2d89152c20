import Foundation

/// Turns mustache-subset source into nodes. Unclosed tags and mismatched sections are errors
/// with a line number, so a broken template stops the panel at start rather than mid-request.
struct TemplateParser {
    let name: String
    let source: String

    func parse() throws(TemplateError) -> [TemplateNode] {
        var cursor = source.startIndex
        // Each open section: its tag's path, inversion, line, and the nodes collected so far.
        var stack: [(path: [String], inverted: Bool, line: Int, nodes: [TemplateNode])] = [([], false, 0, [])]

        func append(_ node: TemplateNode) { stack[stack.count - 1].nodes.append(node) }
        // Lines are counted as the cursor moves, not from the start for every tag.
        var linesBefore = 1
        var counted = source.startIndex
        func lineNumber(at index: String.Index) -> Int {
            linesBefore += source[counted..<index].reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
            counted = index
            return linesBefore
        }

        while let open = source.range(of: "{{", range: cursor..<source.endIndex) {
            if open.lowerBound > cursor { append(.text(String(source[cursor..<open.lowerBound]))) }
            let line = lineNumber(at: open.lowerBound)
            let triple = source[open.upperBound...].hasPrefix("{")
            let closer = triple ? "}}}" : "}}"
            let contentStart = triple ? source.index(after: open.upperBound) : open.upperBound
            guard let close = source.range(of: closer, range: contentStart..<source.endIndex) else {
                throw TemplateError(template: name, line: line, reason: "unclosed tag '\(closer == "}}}" ? "{{{" : "{{")'")
            }
            let content = source[contentStart..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            cursor = close.upperBound
            guard let sigil = content.first else {
                throw TemplateError(template: name, line: line, reason: "empty tag")
            }
            let argument = content.dropFirst().trimmingCharacters(in: .whitespaces)

            if triple {
                append(.variable(path: try path(content, line: line), line: line))
                continue
            }
            switch sigil {
            case "!":
                continue
            case "#", "^":
                stack.append((try path(argument, line: line), sigil == "^", line, []))
            case "/":
                let closing = try path(argument, line: line)
                guard stack.count > 1, let section = stack.last, section.path == closing else {
                    throw TemplateError(template: name, line: line, reason: "'{{/\(argument)}}' closes no open section")
                }
                stack.removeLast()
                append(.section(path: section.path, inverted: section.inverted, children: section.nodes, line: section.line))
            case ">":
                guard !argument.isEmpty else { throw TemplateError(template: name, line: line, reason: "partial without a name") }
                append(.partial(argument, line: line))
            case "&":
                append(.variable(path: try path(argument, line: line), line: line))
            default:
                append(.variable(path: try path(content, line: line), line: line))
            }
        }
        if cursor < source.endIndex { append(.text(String(source[cursor...]))) }
        if stack.count > 1, let unclosed = stack.last {
            throw TemplateError(template: name, line: unclosed.line, reason: "section '\(unclosed.path.joined(separator: "."))' is never closed")
        }
        return stack[0].nodes
    }

    /// `a.b.c` → ["a", "b", "c"]; `.` → [] (the current item).
    private func path(_ text: String, line: Int) throws(TemplateError) -> [String] {
        if text == "." { return [] }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let valid = parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        }
        guard valid else { throw TemplateError(template: name, line: line, reason: "bad name '\(text)'") }
        return parts
    }
}
