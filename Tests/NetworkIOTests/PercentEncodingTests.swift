import Foundation
import NetworkIO
import Testing

@Suite struct PercentEncodingTests {
    @Test func unreservedTextIsKeptAsItIs() {
        #expect(PercentEncoding.encode("Abc-._~019") == "Abc-._~019")
    }

    @Test func everythingElseBecomesUTF8Escapes() {
        #expect(PercentEncoding.encode("a b&c=d/e?") == "a%20b%26c%3Dd%2Fe%3F")
        #expect(PercentEncoding.encode("가방") == "%EA%B0%80%EB%B0%A9")
        #expect(PercentEncoding.encode("%\0\r\n") == "%25%00%0D%0A")
    }

    @Test func pathSegmentsKeepSubDelimitersButNotSlashOrQuery() {
        let encode = { (s: String) in PercentEncoding.encode(s, keeping: PercentEncoding.isSegmentCharacter) }
        #expect(encode("img(1)+x=2,@:!$&'*.png") == "img(1)+x=2,@:!$&'*.png")
        #expect(encode("a/b?c#d;e f") == "a%2Fb%3Fc%23d%3Be%20f")
    }

    @Test func matchesFoundationForEveryByte() {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#;")
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for scalar in (0..<0x250).compactMap(Unicode.Scalar.init) {
            let text = "x" + String(Character(scalar)) + "y"
            #expect(PercentEncoding.encode(text) == text.addingPercentEncoding(withAllowedCharacters: unreserved))
            #expect(PercentEncoding.encode(text, keeping: PercentEncoding.isSegmentCharacter)
                    == text.addingPercentEncoding(withAllowedCharacters: allowed))
        }
    }
}
