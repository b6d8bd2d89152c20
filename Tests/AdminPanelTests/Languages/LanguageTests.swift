import Foundation
import Testing
import OpenMarketCore
@testable import AdminPanel

/// The stringCatalogs (Templates/strings/*.json) and the language choice.
@Suite struct LanguageTests {
    static let stringsFolder = PanelHarness.repository.appendingPathComponent("Templates/strings")
    static let stringCatalogs = try! StringCatalogs(directory: stringsFolder)
    static let en = Localizer(catalog: stringCatalogs[.en])
    static let ko = Localizer(catalog: stringCatalogs[.ko])

    /// Every text of a language: `<language>.json` and each feature's `<feature>.<language>.json`.
    static func texts(_ language: Language) throws -> [String: String] {
        try StringCatalogs(directory: stringsFolder)[language].texts
    }

    @Test func featureFilesJoinTheCatalogAndMayNotRepeatAKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for language in Language.allCases {
            try Data(#"{"a": "A"}"#.utf8).write(to: folder.appendingPathComponent("\(language.rawValue).json"))
            try Data(#"{"feature_b": "B"}"#.utf8).write(to: folder.appendingPathComponent("feature.\(language.rawValue).json"))
        }
        let joined = try StringCatalogs(directory: folder)
        #expect(joined[.ko].texts == ["a": "A", "feature_b": "B"])
        try Data(#"{"a": "again"}"#.utf8).write(to: folder.appendingPathComponent("other.ko.json"))
        #expect(throws: PanelStartupError.self) { try StringCatalogs(directory: folder) }
    }

    @Test func everyKeyIsInEveryLanguage() throws {
        let english = try Self.texts(.en), korean = try Self.texts(.ko)
        #expect(Set(english.keys).subtracting(korean.keys).isEmpty, "missing in ko")
        #expect(Set(korean.keys).subtracting(english.keys).isEmpty, "missing in en")
        #expect(StringCatalogs.problems([.en: StringCatalog(language: .en, texts: english), .ko: StringCatalog(language: .ko, texts: korean)]).isEmpty)
    }

    @Test func aMissingKeyOrPlaceholderFailsStartUp() throws {
        var korean = try Self.texts(.ko)
        let english = try Self.texts(.en)
        korean.removeValue(forKey: "list_heading")
        let problems = StringCatalogs.problems([.en: StringCatalog(language: .en, texts: english), .ko: StringCatalog(language: .ko, texts: korean)])
        #expect(problems == ["ko lacks “list_heading”"])
        korean = try Self.texts(.ko)
        korean["flash_saved"] = "저장했습니다."
        #expect(throws: PanelStartupError.self) {
            try StringCatalogs([.en: StringCatalog(language: .en, texts: english), .ko: StringCatalog(language: .ko, texts: korean)])
        }
    }

    /// Every `{{t.key}}` of the templates, `l("key")` of the panel's code, issue code of the core
    /// and `T("key")` of app.js names a text that exists.
    @Test func everyKeyUsedExists() throws {
        let english = try Self.texts(.en)
        let root = PanelHarness.repository
        func files(_ folder: String, _ ext: String) throws -> [String] {
            let url = root.appendingPathComponent(folder)
            let names = FileManager.default.enumerator(atPath: url.path)?.compactMap { $0 as? String } ?? []
            return try names.filter { $0.hasSuffix(ext) }.map { try String(contentsOf: url.appendingPathComponent($0), encoding: .utf8) }
        }
        func matches(_ pattern: String, in text: String) -> [String] {
            let regex = try! NSRegularExpression(pattern: pattern)
            return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
                Range($0.range(at: 1), in: text).map { String(text[$0]) }
            }
        }
        var used: Set<String> = []
        for text in try files("Templates", ".html") { used.formUnion(matches(#"\{\{t\.([a-z0-9_]+)"#, in: text)) }
        for text in try files("Sources/AdminPanel", ".swift") {
            used.formUnion(matches(#"\bl(?:\.plural)?\("([a-z0-9_]+)""#, in: text))
            used.formUnion(matches(#""(failure_[a-z0-9_]+)""#, in: text))
            used.formUnion(matches(#"code: "([a-z0-9_]+)""#, in: text).map { "issue_" + $0 })
        }
        for text in try files("Sources/OpenMarketCore", ".swift") {
            used.formUnion(matches(#"code: "([a-z0-9_]+)""#, in: text).map { "issue_" + $0 })
        }
        for text in try files("Public", ".js") { used.formUnion(matches(#"\bT\("([a-z0-9_]+)""#, in: text).map { "js_" + $0 }) }
        #expect(used.count > 150)
        let missing = used.subtracting(english.keys).sorted()
        #expect(missing.isEmpty, "\(missing)")
    }

    @Test func choiceIsQueryThenCookieThenAcceptLanguage() {
        #expect(Language.choose(query: "ko", cookie: "en", acceptLanguage: "en") == .ko)
        #expect(Language.choose(query: "fr", cookie: "ko", acceptLanguage: "en") == .ko)
        #expect(Language.choose(query: nil, cookie: nil, acceptLanguage: "ko-KR,ko;q=0.9,en-US;q=0.8") == .ko)
        #expect(Language.choose(query: nil, cookie: nil, acceptLanguage: "en-US,en;q=0.9,ko;q=0.8") == .en)
        #expect(Language.choose(query: nil, cookie: nil, acceptLanguage: "fr-FR, ko;q=0.5") == .ko)
        #expect(Language.choose(query: nil, cookie: nil, acceptLanguage: "ko;q=0, en;q=0.1") == .en)
        #expect(Language.choose(query: nil, cookie: nil, acceptLanguage: "de") == .en)
        #expect(Language.choose(query: nil, cookie: nil, acceptLanguage: ";;,q=,=;") == .en)
        #expect(Language.choose(query: nil, cookie: nil, acceptLanguage: nil) == .en)
    }

    @Test func moneyAndDatesFollowTheLanguage() {
        let date = OpenMarketJSON.parseDate("2026-11-22T00:00:00")!
        #expect(Self.en.date(date) == "Nov 22, 2026")
        #expect(Self.ko.date(date) == "2026년 11월 22일")
        #expect(Self.en.money(12000, .KRW) == "₩12,000")
        #expect(Self.ko.money(12000, .KRW) == "₩12,000")
        #expect(Self.ko.money(12.5, .USD) == "$12.50")
        #expect(Self.en.plural("stock_in_stock", count: 1) == "1 in stock")
        #expect(Self.en.plural("stock_in_stock", count: 1200) == "1,200 in stock")
        #expect(Self.ko.plural("stock_in_stock", count: 1200) == "재고 1,200개")
        #expect(Self.ko.duration(420) == "7분")
        #expect(Self.en.duration(1) == "1 second")
    }

    @Test func issueMessagesAreTranslatedWithMoneyFormatted() {
        let issue = ProductRules.discountIssues(20000, price: 10000).first!
        #expect(issue.message == "The discount cannot be more than the price (10000).")
        #expect(Self.en.issue(issue, currency: .KRW) == "The discount cannot be more than the price (₩10,000).")
        #expect(Self.ko.issue(issue, currency: .KRW) == "즉시할인 금액은 판매가(₩10,000)보다 클 수 없습니다.")
        #expect(Self.en.issue(issue, currency: .USD) == "The discount cannot be more than the price ($10,000.00).")
        let short = ProductRules.nameIssues("ab").first!
        #expect(Self.ko.issue(short) == "상품명은 3자 이상 입력해 주세요(지금 2자).")
        // The API's own words (no code) are shown as the API wrote them.
        #expect(Self.ko.issue(FieldIssue(field: "name", message: "name is taken")) == "name is taken")
    }

    @Test func placeholdersAreFilledOnceAndNeverFromValues() {
        #expect(Localizer.fill("Saved “{name}” ({count})", ["name": "{count}", "count": "3"]) == "Saved “{count}” (3)")
        #expect(Localizer.fill("{unknown} {", ["name": "x"]) == "{unknown} {")
        #expect(Self.en("no_such_key") == "no_such_key")
    }
}
