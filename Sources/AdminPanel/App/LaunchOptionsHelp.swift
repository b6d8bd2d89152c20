import Foundation

/// The texts made from `LaunchOptionTable`: `--help`, and the README's option table
/// (`--help-markdown`, which `scripts/option-table` writes into the README).
extension LaunchOptions {
    public static let usage: String = {
        var lines = [
            "Usage: openmarket-admin [options]",
            "       openmarket-admin backup DIR [--data DATA]   (a consistent copy of DATA, also while the panel runs)",
            "",
            "A web admin panel for Open Market sellers. Without --api it starts an embedded sandbox API.",
            "",
        ]
        for row in LaunchOptionTable.rows {
            var text = row.help
            switch row.shownDefault {
            case .value(let value): text += " (default \(value))"
            case .words(let words): text += " (default: \(words))"
            case nil: break
            }
            lines += helpLines(synopsis: row.synopsis, text: text)
        }
        lines += helpLines(synopsis: "--help", text: "show this help")
        lines += helpLines(synopsis: "--help-markdown", text: "the options as the README's table (Markdown)")
        lines.append("")
        let variables = LaunchOptionTable.rows.map { row in row.variableNote.map { "\(row.variable) (\($0))" } ?? row.variable }
        lines += wrap("Every option can also come from the environment: " + variables.joined(separator: ", ") + ".",
                      width: helpWidth)
        return lines.joined(separator: "\n")
    }()

    /// The README's option table, between its `options:begin` and `options:end` markers.
    public static let markdownTable: String = {
        var lines = ["| flag | variable | default | what |", "|---|---|---|---|"]
        for row in LaunchOptionTable.rows {
            let variable = "`\(row.variable)`" + (row.variableNote.map { $0 == "1" ? " (`1`)" : " (\($0))" } ?? "")
            let shown = switch row.shownDefault {
            case .value(let value): "`\(value)`"
            case .words(let words): "(\(words))"
            case nil: ""
            }
            lines.append("| `\(row.synopsis)` | \(variable) | \(shown) | \(row.help) |")
        }
        return lines.map { $0.escapingPipesInCode() }.joined(separator: "\n")
    }()

    private static let helpWidth = 100
    private static let helpIndent = 24

    /// `  --flag VALUE          text…`, the text wrapped under itself.
    private static func helpLines(synopsis: String, text: String) -> [String] {
        let head = "  " + synopsis
        let body = wrap(text, width: helpWidth - helpIndent)
        let padding = String(repeating: " ", count: helpIndent)
        guard head.count < helpIndent - 1 else {
            return [head] + body.map { padding + $0 }
        }
        return body.enumerated().map { index, line in
            index == 0 ? head.padding(toLength: helpIndent, withPad: " ", startingAt: 0) + line : padding + line
        }
    }

    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

private extension String {
    /// A `|` inside a code span (`v1|v2a|v2b`) would end the Markdown cell: it is escaped.
    func escapingPipesInCode() -> String {
        var result = ""
        var inCode = false
        for character in self {
            if character == "`" { inCode.toggle() }
            result += inCode && character == "|" ? "\\|" : String(character)
        }
        return result
    }
}
