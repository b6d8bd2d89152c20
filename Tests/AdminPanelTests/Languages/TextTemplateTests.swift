import Foundation
import Testing
@testable import AdminPanel

/// `TextTemplate` (texts split once at start-up) must fill exactly as `Localizer.fill` does.
@Suite struct TextTemplateTests {
    static let texts = [
        "", "plain", "{count} in stock", "재고 {count}개", "‘{name}’{을/를} 삭제할까요?", "{price}{으로/로} 낮췄습니다",
        "{role}{으로/로}", "{a/b} {을/가}", "{unknown} {", "{", "}", "{}", "{{count}}", "{a{count}}", "x{count",
        "{count}{count}", "Saved “{name}” ({count})", "{name}{이/가} {count}개", "{을/를}", "a{b}c{d}e",
        "{count}\u{301}", "{\u{301}count}", "é{count}é", "{name}{은/는} {unknown}{과/와}",
    ]
    static let argumentSets: [[String: String]] = [
        [:], ["count": "3"], ["count": "1,200"], ["name": "{count}", "count": "3"], ["name": "텀블러"],
        ["name": "머그컵"], ["price": "₩900"], ["role": "편집자"], ["name": "{을/를}"], ["b": "B", "d": ""],
        ["count": "\u{301}"], ["a/b": "slash"], ["을/를": "value"], ["": "empty"], ["a{count": "odd"],
    ]

    @Test func fillsAsLocalizerFillDoes() {
        for text in Self.texts {
            let template = TextTemplate(text)
            for arguments in Self.argumentSets {
                #expect(template.filled(arguments) == Localizer.fill(text, arguments), "\(text) \(arguments)")
                for (name, value) in arguments {
                    #expect(template.filled(name, value) == Localizer.fill(text, [name: value]), "\(text) \(name)")
                }
            }
        }
    }

    @Test func everyCatalogTextFillsAsBefore() throws {
        for language in Language.allCases {
            for (key, text) in try LanguageTests.texts(language) {
                let template = TextTemplate(text)
                for arguments in Self.argumentSets {
                    #expect(template.filled(arguments) == Localizer.fill(text, arguments), "\(key)")
                }
            }
        }
    }

    @Test func pluralStaysAsBefore() {
        for l in [LanguageTests.en, LanguageTests.ko] {
            for count in [0, 1, 2, 1_000, -1] {
                let old = Localizer.fill(l.catalog.texts[count == 1 && l.catalog.texts["stock_in_stock_one"] != nil
                                                          ? "stock_in_stock_one" : "stock_in_stock"]!,
                                         ["count": l.number(count)])
                #expect(l.plural("stock_in_stock", count: count) == old)
            }
            #expect(l.plural("no_such_key", count: 2) == "no_such_key")
        }
        #expect(LanguageTests.en.plural("stock_in_stock", count: 1) == "1 in stock")
        #expect(LanguageTests.ko.plural("stock_in_stock", count: 1200) == "재고 1,200개")
    }
}
