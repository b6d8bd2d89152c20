import Testing
@testable import HTTPServer

/// `CookieParser` (the `Cookie` request header) and `SetCookie` (the response header).
@Suite struct CookiesTests {
    private func cookies(_ values: String...) -> [String: String] {
        CookieParser.parse(HTTPHeaders(values.map { ("Cookie", $0) }))
    }

    @Test func pairsAreSplitTrimmedAndUnquoted() {
        #expect(cookies("a=1; b=2;c=3") == ["a": "1", "b": "2", "c": "3"])
        #expect(cookies("  s = \"quoted value\" ") == ["s": "quoted value"])
        #expect(cookies("empty=; x=1") == ["empty": "", "x": "1"])
        #expect(cookies("v=a=b") == ["v": "a=b"])   // only the first = separates
    }

    @Test func theFirstOccurrenceWinsAcrossHeaders() {
        #expect(cookies("s=first; s=second") == ["s": "first"])
        #expect(cookies("s=first", "s=second; t=2") == ["s": "first", "t": "2"])
    }

    @Test func brokenPairsAreSkippedNotFatal() {
        #expect(cookies("novalue; a=1") == ["a": "1"])
        #expect(cookies("bad name=1; bad\u{1}=2; (x)=3; ok=4") == ["ok": "4"])
        #expect(cookies("=1; ;;") == [:])
        #expect(cookies("") == [:])
    }

    @Test func setCookieDefaultsAreTheSafeOnes() {
        #expect(SetCookie(name: "s", value: "v").headerValue == "s=v; Path=/; HttpOnly; SameSite=Strict")
        #expect(SetCookie(name: "s", value: "v", maxAge: 60, httpOnly: false, sameSite: .lax, secure: true).headerValue
                == "s=v; Path=/; Max-Age=60; Secure; SameSite=Lax")
        #expect(SetCookie.expired("s").headerValue == "s=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict")
        // SameSite=None is only valid with Secure.
        #expect(SetCookie(name: "s", value: "v", sameSite: .none).headerValue.contains("; Secure; SameSite=None"))
    }

    @Test func aValueCannotBreakTheHeaderOrAddAttributes() {
        let header = SetCookie(name: "s", value: "a; Domain=evil\r\nX: 1 \"ü\"", path: "/p;q").headerValue
        #expect(!header.contains("\r") && !header.contains("\n") && !header.contains("\""))
        #expect(header.hasPrefix("s=a%3B%20Domain=evil%0D%0AX:%201%20%22%C3%BC%22; Path=/p%3Bq;"))
    }
}
