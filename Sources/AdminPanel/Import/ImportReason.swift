/// A row's failure as stored in `import_rows.reason`: a catalog key and its values, so the
/// results page speaks the reader's language (`key␟name=value␟…`; plain text from older rows
/// is shown as it is).
enum ImportReason {
    private static let separator: Character = "\u{1F}"

    static func encode(_ key: String, _ arguments: [String: String]) -> String {
        let pairs = arguments.sorted { $0.key < $1.key }.map { name, value in
            name.filter { $0 != separator && $0 != "=" } + "=" + value.filter { $0 != separator }
        }
        return ([key] + pairs).joined(separator: String(separator))
    }

    static func text(_ stored: String, _ l: Localizer) -> String {
        let parts = stored.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
        guard let key = parts.first, l.catalog.texts[key] != nil else { return stored }
        var arguments: [String: String] = [:]
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            arguments[String(part[..<equals])] = String(part[part.index(after: equals)...])
        }
        return l(key, arguments)
    }
}
