import Testing
import NetworkIO

@Suite struct SecretsTests {
    @Test func randomHexHasTheLengthAndAlphabetAndNeverRepeats() {
        let tokens = (0..<200).map { _ in Secrets.randomHex(byteCount: 16) }
        #expect(Set(tokens).count == tokens.count)
        #expect(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
        // Every hex digit shows up somewhere: the bytes are not stuck in a narrow range.
        #expect(Set(tokens.joined()).count == 16)
    }

    @Test func randomStringsUseOnlyTheAlphabet() {
        let code = Secrets.randomString(length: 500, alphabet: "ab2")
        #expect(code.count == 500 && Set(code) == ["a", "b", "2"])
    }

    @Test func equalComparesWholeStrings() {
        #expect(Secrets.equal("abc", "abc"))
        #expect(Secrets.equal("", ""))
        #expect(!Secrets.equal("abc", "abd"))
        #expect(!Secrets.equal("abc", "abcd"))
        #expect(!Secrets.equal("abcd", "abc"))
        #expect(!Secrets.equal("", "a"))
        #expect(Secrets.equal("비밀번호", "비밀번호") && !Secrets.equal("비밀번호", "비밀번"))
    }
}
