import Foundation

/// Korean particles chosen by the word they follow, as a Korean writer would: ‘텀블러’를,
/// ‘머그컵’을, ₩900으로, 서울로. A catalog text writes the pair in braces right after the value,
/// consonant form first: `‘{name}’{을/를} 삭제할까요?`, `{price}{으로/로}`. Tokens: `{을/를}`,
/// `{이/가}`, `{은/는}`, `{과/와}`, `{으로/로}` (either order). English texts never use them.
///
/// The last sound decides: a Hangul syllable ends in a consonant when (code − 0xAC00) % 28 ≠ 0;
/// for (으)로 a final ㄹ (index 8) counts as a vowel (서울로, not 서울으로). Digits, amounts and
/// Latin letters are judged as a Korean reads them aloud (`ending(of:)`). Quotes, brackets and
/// spaces between the word and the token are skipped.
enum KoreanParticles {
    /// How a text ends when read aloud.
    enum Ending: Equatable {
        case vowel
        case consonant
        /// ㄹ: a consonant, except before (으)로.
        case rieul
    }

    /// A particle pair: the form after a consonant, the form after a vowel, and whether ㄹ takes
    /// the vowel form (only 로 does).
    private struct Pair {
        let afterConsonant: String
        let afterVowel: String
        let rieulTakesVowelForm: Bool

        func form(after ending: Ending) -> String {
            switch ending {
            case .vowel: afterVowel
            case .consonant: afterConsonant
            case .rieul: rieulTakesVowelForm ? afterVowel : afterConsonant
            }
        }
    }

    private static let pairs: [String: Pair] = {
        let list = [Pair(afterConsonant: "을", afterVowel: "를", rieulTakesVowelForm: false),
                    Pair(afterConsonant: "이", afterVowel: "가", rieulTakesVowelForm: false),
                    Pair(afterConsonant: "은", afterVowel: "는", rieulTakesVowelForm: false),
                    Pair(afterConsonant: "과", afterVowel: "와", rieulTakesVowelForm: false),
                    Pair(afterConsonant: "으로", afterVowel: "로", rieulTakesVowelForm: true)]
        var table: [String: Pair] = [:]
        for pair in list {
            table[pair.afterConsonant + "/" + pair.afterVowel] = pair
            table[pair.afterVowel + "/" + pair.afterConsonant] = pair
        }
        return table
    }()

    /// Whether `token` (the text between the braces) is a particle pair.
    static func isToken(_ token: Substring) -> Bool { pairs[String(token)] != nil }

    /// The particle for `token` after `text` (what was written before it), or nil when the token
    /// is not a particle pair.
    static func particle(_ token: Substring, after text: String) -> String? {
        guard let pair = pairs[String(token)] else { return nil }
        return pair.form(after: ending(of: text))
    }

    /// Every particle token in `text` resolved by what precedes it (for texts built without
    /// placeholders, and for tests).
    static func resolve(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let form = particle(after[..<close], after: result) {
                result += form
                rest = after[after.index(after: close)...]
            } else {
                result += "{"
                rest = after
            }
        }
        return result + rest
    }

    /// Characters between a word and its particle that are not read: quotes, brackets, spaces.
    private static let silent: Set<Character> = ["‘", "’", "“", "”", "\"", "'", "「", "」", "『", "』", "(", ")", "[", "]",
                                                 "<", ">", "《", "》", "〈", "〉", " ", "\u{00A0}", ".", "…", "*"]

    /// The ending of `text` as read aloud. Unknown endings (emoji, symbols, other scripts) count as
    /// a consonant: 을/이/은/과/으로 read acceptably after most of them.
    static func ending(of text: String) -> Ending {
        let characters = Array(text)
        var end = characters.count
        while end > 0, silent.contains(characters[end - 1]) { end -= 1 }
        guard end > 0 else { return .consonant }
        let last = characters[end - 1]
        if let syllable = hangulFinal(last) { return syllable }
        if last.isASCII, last.isNumber { return amountEnding(characters[..<end]) }
        if last == "%" { return .vowel }  // 퍼센트
        if last.isASCII, last.isLetter { return latinEnding(characters[..<end]) }
        return .consonant
    }

    /// A Hangul syllable's final: none, ㄹ (jongseong index 8) or another consonant.
    private static func hangulFinal(_ character: Character) -> Ending? {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
              (0xAC00...0xD7A3).contains(scalar.value) else { return nil }
        let final = (scalar.value - 0xAC00) % 28
        return final == 0 ? .vowel : final == 8 ? .rieul : .consonant
    }

    /// A number as read in Korean by its last digit: 영, 일, 이, 삼, 사, 오, 육, 칠, 팔, 구; a
    /// round number ends in 십, 백, 천, 만 (all consonants). `₩12,000` is read 원 and `$12.50`
    /// 달러 (the sign goes after the number when spoken).
    private static func amountEnding(_ characters: ArraySlice<Character>) -> Ending {
        var start = characters.endIndex
        while start > characters.startIndex, isAmountCharacter(characters[start - 1]) { start -= 1 }
        if start > characters.startIndex {
            switch characters[start - 1] {
            case "₩", "￦": return .consonant  // 원
            case "$": return .vowel            // 달러
            default: break
            }
        }
        switch characters[characters.endIndex - 1] {
        case "1", "7", "8": return .rieul         // 일, 칠, 팔
        case "0", "3", "6": return .consonant     // 영/십/백/천, 삼, 육
        default: return .vowel                     // 이, 사, 오, 구
        }
    }

    private static func isAmountCharacter(_ character: Character) -> Bool {
        (character.isASCII && character.isNumber) || character == "," || character == "."
    }

    /// Latin letters: an acronym or a single letter is read letter by letter (엘, 엠, 엔, 알 end in
    /// a consonant; 에이, 비, 씨… in a vowel); a word by how its loanword ends (북, 컵, 폰, 걸).
    private static func latinEnding(_ characters: ArraySlice<Character>) -> Ending {
        var start = characters.endIndex
        while start > characters.startIndex, characters[start - 1].isASCII, characters[start - 1].isLetter { start -= 1 }
        let word = String(characters[start...])
        let last = Character(word.suffix(1).lowercased())
        if word.count == 1 || word == word.uppercased() {
            switch last {
            case "l", "r": return .rieul
            case "m", "n": return .consonant
            default: return .vowel
            }
        }
        let lower = word.lowercased()
        // A silent e: phone 폰, home 홈, style 스타일; other e endings are read (케이스, 케이크).
        if lower.hasSuffix("ne") || lower.hasSuffix("me") { return .consonant }
        if lower.hasSuffix("le") { return .rieul }
        switch last {
        case "l": return .rieul                           // 걸, 모델
        case "m", "n", "k", "p", "b", "c", "g": return .consonant  // 폼, 폰, 북, 컵, 클럽, 뮤직, 백
        case "t": return lower.hasSuffix("et") || lower.hasSuffix("ut") || lower.hasSuffix("at") ? .consonant : .vowel  // 캣, 컷; otherwise 트 (아트)
        default: return .vowel                              // 커버(r), 케이스(e), 박스(x)…
        }
    }
}
