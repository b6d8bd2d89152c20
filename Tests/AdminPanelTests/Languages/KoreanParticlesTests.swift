import Foundation
import Testing
@testable import AdminPanel

/// Particles chosen by the word they follow (을/를, 이/가, 은/는, 과/와, (으)로), never `을(를)`.
@Suite struct KoreanParticlesTests {
    private func pick(_ word: String, _ token: String) -> String {
        word + (KoreanParticles.particle(Substring(token), after: word) ?? "?")
    }

    @Test func hangulBatchimDecides() {
        #expect(pick("텀블러", "을/를") == "텀블러를")
        #expect(pick("머그컵", "을/를") == "머그컵을")
        #expect(pick("상품명", "은/는") == "상품명은")
        #expect(pick("상품 설명", "은/는") == "상품 설명은")
        #expect(pick("할인 금액", "이/가") == "할인 금액이")
        #expect(pick("스토어", "이/가") == "스토어가")
        #expect(pick("재고", "과/와") == "재고와")
        #expect(pick("가격", "과/와") == "가격과")
        // Either order of the pair reads the same.
        #expect(pick("텀블러", "를/을") == "텀블러를")
    }

    @Test func rieulTakesRoButOtherParticlesAsAConsonant() {
        #expect(pick("서울", "으로/로") == "서울로")
        #expect(pick("연필", "으로/로") == "연필로")
        #expect(pick("연필", "을/를") == "연필을")
        #expect(pick("편집자", "으로/로") == "편집자로")
        #expect(pick("보기 전용", "으로/로") == "보기 전용으로")
        #expect(pick("가방", "으로/로") == "가방으로")
    }

    @Test func digitsAreReadAsKoreanNumbers() {
        // 일, 칠, 팔 end in ㄹ; 영/십/백/천, 삼, 육 in another consonant; 이, 사, 오, 구 in a vowel.
        for (number, object, direction) in [("1", "을", "로"), ("2", "를", "로"), ("3", "을", "으로"), ("4", "를", "로"),
                                            ("5", "를", "로"), ("6", "을", "으로"), ("7", "을", "로"), ("8", "을", "로"),
                                            ("9", "를", "로"), ("10", "을", "으로"), ("1,000", "을", "으로")] {
            #expect(pick(number, "을/를") == number + object, "\(number)")
            #expect(pick(number, "으로/로") == number + direction, "\(number)")
        }
        // Amounts are read with their unit: ₩12,000 → 만 이천 원, $12.50 → 십이 달러 오십 센트… 달러.
        #expect(pick("₩12,002", "으로/로") == "₩12,002으로")
        #expect(pick("$12.50", "으로/로") == "$12.50로")
        #expect(pick("10%", "으로/로") == "10%로")
    }

    @Test func latinLettersByTheirReading() {
        #expect(pick("L", "이/가") == "L이")         // 엘
        #expect(pick("M", "이/가") == "M이")         // 엠
        #expect(pick("A", "이/가") == "A가")         // 에이
        #expect(pick("USB", "을/를") == "USB를")     // 유에스비
        #expect(pick("iPhone", "을/를") == "iPhone을")   // 아이폰
        #expect(pick("Notebook", "을/를") == "Notebook을")   // 노트북
        #expect(pick("Cover", "을/를") == "Cover를")   // 커버
        #expect(pick("Model", "으로/로") == "Model로")   // 모델
        #expect(pick("Case", "으로/로") == "Case로")   // 케이스
    }

    @Test func quotesBracketsAndSpacesAreSkipped() {
        #expect(pick("‘텀블러 3’", "을/를") == "‘텀블러 3’을")
        #expect(pick("‘머그’", "을/를") == "‘머그’를")
        #expect(pick("“Cup”", "이/가") == "“Cup”이")
        #expect(pick("“Table”", "으로/로") == "“Table”로")
        #expect(pick("재고 3개)", "과/와") == "재고 3개)와")
        #expect(pick("(상품)", "은/는") == "(상품)은")
        // Nothing readable before it: the consonant form, never a parenthesis.
        #expect(pick("", "을/를") == "을")
        #expect(pick("🎁", "이/가") == "🎁이")
    }

    @Test func localizerFillsValuesThenChoosesByThem() {
        #expect(Localizer.fill("‘{name}’{을/를} 삭제할까요?", ["name": "텀블러 3"]) == "‘텀블러 3’을 삭제할까요?")
        #expect(Localizer.fill("‘{name}’{을/를} 삭제할까요?", ["name": "텀블러"]) == "‘텀블러’를 삭제할까요?")
        #expect(Localizer.fill("{price}{으로/로} 낮췄습니다", ["price": "₩900"]) == "₩900으로 낮췄습니다")
        #expect(Localizer.fill("{role}{으로/로}", ["role": "편집자"]) == "편집자로")
        // A value is never read as a token or a placeholder.
        #expect(Localizer.fill("‘{name}’{을/를}", ["name": "{을/를}"]) == "‘{을/를}’을")
        // Not a pair: left as written.
        #expect(Localizer.fill("{a/b} {을/가}", [:]) == "{a/b} {을/가}")
        #expect(!StringCatalog.placeholders("‘{name}’{을/를} {price}{으로/로}").contains("을/를"))
        #expect(StringCatalog.placeholders("‘{name}’{을/를} {price}{으로/로}") == ["name", "price"])
    }

    @Test func theKoreanCatalogHasNoParenthesisedParticlesAndOnlyKnownTokens() throws {
        let banned = ["(를)", "(을)", "(이)", "(가)", "(은)", "(는)", "(으)로", "(와)", "(과)"]
        for language in Language.allCases {
            for (key, text) in try LanguageTests.texts(language) {
                for word in banned { #expect(!text.contains(word), "\(language) \(key): \(text)") }
                // Every `{x/y}` is a particle pair the helper knows; English never uses them.
                var rest = Substring(text)
                while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                    let inside = rest[rest.index(after: open)..<close]
                    if inside.contains("/") {
                        #expect(KoreanParticles.isToken(inside), "\(language) \(key): unknown token {\(inside)}")
                        #expect(language == .ko, "\(language) \(key) uses a Korean particle token")
                    }
                    rest = rest[rest.index(after: close)...]
                }
            }
        }
    }

    @Test func everyParticleTokenInTheCatalogResolves() throws {
        // Filled with Korean values of both endings, no Korean text keeps a brace pair or a "(를)".
        for (key, text) in try LanguageTests.texts(.ko) where text.contains("/") {
            let names = StringCatalog.placeholders(text)
            for value in ["텀블러", "머그컵", "₩12,000"] {
                let filled = LanguageTests.ko(key, Dictionary(uniqueKeysWithValues: names.map { ($0, value) }))
                for token in ["{을/를}", "{이/가}", "{은/는}", "{과/와}", "{으로/로}"] {
                    #expect(!filled.contains(token), "\(key): \(filled)")
                }
            }
        }
        #expect(LanguageTests.ko("delete_summary", ["name": "텀블러", "price": "₩12,000", "stock": "3"])
                == "‘텀블러’(₩12,000, 재고 3개)와 이미지가 오픈마켓에서 삭제됩니다.")
        #expect(LanguageTests.ko("people_role_changed", ["name": "박직원", "role": "보기 전용"])
                == "박직원님의 역할을 보기 전용으로 변경했습니다.")
    }

    @Test func templatesGetFixedWordsWithTheirParticleChosen() throws {
        let catalog = StringCatalog(language: .ko, texts: ["a": "‘스토어’{을/를} 확인해 주세요", "b": "{name}{을/를}"])
        let texts = catalog.templateTexts
        #expect(texts["a"] == "‘스토어’를 확인해 주세요")
        #expect(texts["b"] == "{name}{을/를}")   // filled by Localizer, never by a template
    }
}
