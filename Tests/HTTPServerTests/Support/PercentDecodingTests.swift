import Testing
@testable import HTTPServer

/// `PercentDecoding`: each `%XX` decoded once, `+` only in form data, bad escapes refused.
@Suite struct PercentDecodingTests {
    @Test func escapesAreDecodedOnce() {
        #expect(PercentDecoding.decode("a%20b") == "a b")
        #expect(PercentDecoding.decode("%2541") == "%41")   // not decoded twice
        #expect(PercentDecoding.decode("%e2%98%95") == "☕")   // either hex case
        #expect(PercentDecoding.decode("plain") == "plain")
        #expect(PercentDecoding.decode("") == "")
    }

    @Test func plusIsASpaceOnlyInFormData() {
        #expect(PercentDecoding.decode("a+b") == "a+b")
        #expect(PercentDecoding.decode("a+b%2B", plusAsSpace: true) == "a b+")
    }

    @Test(arguments: ["%", "%4", "%4g", "%%41", "a%2", "%FF", "%C3%28", "%ED%A0%80"])
    func malformedEscapesAndInvalidUTF8AreNil(text: String) {
        #expect(PercentDecoding.decode(Substring(text)) == nil, "\(text)")
    }

    @Test func queryItemsKeepWhatDoesNotDecode() {
        let items = PercentDecoding.queryItems("q=%ED%8C%A8%EB%94%A9&page=2&bad=%zz&&flag&x=a=b")
        #expect(items.map(\.name) == ["q", "page", "bad", "flag", "x"])
        #expect(items.map(\.value) == ["패딩", "2", "%zz", "", "a=b"])
    }
}
