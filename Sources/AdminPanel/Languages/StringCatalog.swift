import Foundation
import HTMLTemplates
import OpenMarketCore

/// One language's texts: flat JSON objects `key → text` in `Templates/strings/<language>.json`
/// and `Templates/strings/<feature>.<language>.json`.
/// Texts may hold `{name}` placeholders, filled by `Localizer`, and Korean particle tokens
/// (`{을/를}`, see `KoreanParticles`), chosen by `Localizer` and by `app.js` alike. Keys starting with `js_` are also
/// handed to `app.js`. A key ending in `_one` is the singular form of the key without it.
struct StringCatalog: Sendable {
    let language: Language
    let texts: [String: String]
    /// `{{t.key}}` in every template: compiled templates (`TemplateSet.compile`) fix them at start-up.
    let templateTexts: [String: String]
    /// Every text split into literal parts and slots once, for `Localizer` (rows fill the same
    /// few texts thousands of times).
    let templates: [String: TextTemplate]
    /// The `js_` texts as JSON (keys without the prefix), for the page's `data-strings`.
    let scriptJSON: String

    init(language: Language, texts: [String: String]) {
        self.language = language
        self.texts = texts
        templates = texts.mapValues(TextTemplate.init)
        // Templates show texts as they are (`{{t.key}}`, nothing filled): a particle token after
        // fixed words is chosen here, so it never shows as `{을/를}`.
        templateTexts = texts.mapValues { text in
            Self.placeholders(text).isEmpty ? KoreanParticles.resolve(text) : text
        }
        var script: [String: String] = [:]
        for (key, text) in texts where key.hasPrefix("js_") { script[String(key.dropFirst(3))] = text }
        let data = (try? JSONSerialization.data(withJSONObject: script, options: [.sortedKeys])) ?? Data("{}".utf8)
        scriptJSON = String(decoding: data, as: UTF8.self)
    }

    /// The placeholder names of a text, e.g. `["name", "count"]` for "{name} has {count}".
    static func placeholders(_ text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let name = after[..<close]
            // `{을/를}` and the other particle tokens hold a '/', so they are never placeholders.
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { names.insert(String(name)) }
            rest = after[after.index(after: close)...]
        }
        return names
    }
}

/// Every language's catalog, loaded and cross-checked at start: a key missing in one language,
/// or a placeholder one translation forgot, stops the panel with the list of problems.
struct StringCatalogs: Sendable {
    private let catalogs: [Language: StringCatalog]

    subscript(language: Language) -> StringCatalog { catalogs[language] ?? catalogs[Language.fallback]! }

    init(directory: URL) throws {
        var loaded: [Language: StringCatalog] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for language in Language.allCases {
            // `<language>.json` holds the shared texts; `<feature>.<language>.json` files keep a
            // feature's texts beside it, so features added side by side never edit one file.
            let suffix = ".\(language.rawValue).json"
            let files = ["\(language.rawValue).json"] + names.filter { $0.hasSuffix(suffix) }.sorted()
            var texts: [String: String] = [:]
            for name in files {
                let file = directory.appendingPathComponent(name)
                let part: [String: String]
                do {
                    part = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: file))
                } catch {
                    throw PanelStartupError("the language catalog \(file.path) could not be read: \(error)")
                }
                if let twice = part.keys.first(where: { texts[$0] != nil }) {
                    throw PanelStartupError("the language catalog \(file.path) defines “\(twice)” again")
                }
                texts.merge(part) { first, _ in first }
            }
            loaded[language] = StringCatalog(language: language, texts: texts)
        }
        try self.init(loaded)
    }

    init(_ stringCatalogs: [Language: StringCatalog]) throws {
        let problems = Self.problems(stringCatalogs)
        guard problems.isEmpty else {
            throw PanelStartupError("the language catalogs disagree: " + problems.prefix(20).joined(separator: "; "))
        }
        self.catalogs = stringCatalogs
    }

    private init(checked stringCatalogs: [Language: StringCatalog]) { self.catalogs = stringCatalogs }

    /// The texts for one API dialect: a key `v1_X` replaces `X` in v1 (the 2021 API asks for the
    /// product's own password where the others ask for the vendor's), so every page, message and
    /// script text speaks of the right password without the templates knowing the dialect.
    func forDialect(_ dialect: Dialect) -> StringCatalogs {
        let prefix = dialect.rawValue + "_"
        guard dialect == .v1 else { return self }
        var overlaid: [Language: StringCatalog] = [:]
        for (language, catalog) in catalogs {
            var texts = catalog.texts
            for (key, text) in catalog.texts where key.hasPrefix(prefix) { texts[String(key.dropFirst(prefix.count))] = text }
            overlaid[language] = StringCatalog(language: language, texts: texts)
        }
        return StringCatalogs(checked: overlaid)
    }

    /// Keys missing from a language, and texts whose placeholders differ from the English one.
    static func problems(_ catalogs: [Language: StringCatalog]) -> [String] {
        var problems: [String] = []
        let allKeys = Set(catalogs.values.flatMap(\.texts.keys))
        for language in Language.allCases {
            guard let catalog = catalogs[language] else { problems.append("no \(language.rawValue) catalog"); continue }
            for key in allKeys.sorted() {
                guard let text = catalog.texts[key] else {
                    problems.append("\(language.rawValue) lacks “\(key)”")
                    continue
                }
                if text.trimmingCharacters(in: .whitespaces).isEmpty { problems.append("\(language.rawValue) “\(key)” is empty") }
                if let reference = catalogs[.fallback]?.texts[key],
                   StringCatalog.placeholders(reference) != StringCatalog.placeholders(text) {
                    problems.append("\(language.rawValue) “\(key)” has placeholders \(StringCatalog.placeholders(text).sorted()), not \(StringCatalog.placeholders(reference).sorted())")
                }
            }
        }
        return problems
    }
}
