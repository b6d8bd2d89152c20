/// `Cookie` request header parsing (RFC 6265 §5.4): `a=1; b=2`, first occurrence wins.
enum CookieParser {
    static func parse(_ headers: HTTPHeaders) -> [String: String] {
        var cookies: [String: String] = [:]
        for header in headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let pieces = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pieces.count == 2 else { continue }
                let name = pieces[0].trimmingSpaces()
                var value = pieces[1].trimmingSpaces()
                if value.count >= 2, value.first == "\"", value.last == "\"" {
                    value = value.dropFirst().dropLast()
                }
                guard ASCII.isToken(name), cookies[String(name)] == nil else { continue }
                cookies[String(name)] = String(value)
            }
        }
        return cookies
    }
}

/// A `Set-Cookie` response header. Defaults are the safe ones: HttpOnly, SameSite=Strict, Path=/.
public struct SetCookie: Sendable, Equatable {
    public enum SameSite: String, Sendable { case strict = "Strict", lax = "Lax", none = "None" }

    public var name: String
    public var value: String
    public var path: String
    public var maxAge: Int?
    public var httpOnly: Bool
    public var sameSite: SameSite
    public var secure: Bool

    public init(name: String, value: String, path: String = "/", maxAge: Int? = nil,
                httpOnly: Bool = true, sameSite: SameSite = .strict, secure: Bool = false) {
        self.name = name
        self.value = value
        self.path = path
        self.maxAge = maxAge
        self.httpOnly = httpOnly
        self.sameSite = sameSite
        self.secure = secure
    }

    /// A cookie that tells the browser to delete `name`.
    public static func expired(_ name: String, path: String = "/") -> SetCookie {
        SetCookie(name: name, value: "", path: path, maxAge: 0)
    }

    /// The header value. Bytes outside RFC 6265's cookie-octet set are percent-encoded, so a
    /// value can neither break the header nor add attributes.
    public var headerValue: String {
        var s = Self.encoded(name, allowed: ASCII.isTokenChar) + "=" + Self.encoded(value, allowed: Self.isCookieOctet)
        s += "; Path=" + Self.encoded(path, allowed: { Self.isCookieOctet($0) && $0 != ASCII.semicolon })
        if let maxAge { s += "; Max-Age=\(maxAge)" }
        if httpOnly { s += "; HttpOnly" }
        if secure || sameSite == .none { s += "; Secure" }
        s += "; SameSite=" + sameSite.rawValue
        return s
    }

    static func isCookieOctet(_ b: UInt8) -> Bool {
        b == 0x21 || (0x23...0x2B).contains(b) || (0x2D...0x3A).contains(b) || (0x3C...0x5B).contains(b)
            || (0x5D...0x7E).contains(b)
    }

    private static func encoded(_ s: String, allowed: (UInt8) -> Bool) -> String {
        guard !s.utf8.allSatisfy(allowed) else { return s }
        var out = ""
        for b in s.utf8 {
            if allowed(b) { out.unicodeScalars.append(UnicodeScalar(b)) }
            else { out += "%" + String(b, radix: 16, uppercase: true).leftPadded(to: 2) }
        }
        return out
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
