import Foundation
import HTTPServer

/// CSRF protection that stores nothing: a signed double-submit token.
///
/// Each browser gets a random key in the `om_form` cookie (HttpOnly, SameSite=Lax); its forms
/// carry `HMAC(server key, cookie)`. Another site can neither read the cookie nor compute the
/// HMAC, so it cannot forge a form; the server keeps no per-visitor state, so a flood of
/// cookieless requests creates nothing and pushes nobody out. The server key lives in
/// `panel.sqlite`, so tokens stay valid across restarts.
///
/// Signed in, the token is bound to the session as well (`HMAC(server key, cookie | session)`):
/// a pair of form key and token taken from a signed-out page (or another person's browser) is
/// worth nothing with someone's session. Signed out, it is bound to the browser key alone.
struct FormTokens: Sendable {
    static let cookieName = "om_form"
    let key: [UInt8]

    /// `session`: the signed-in session's hash (nil signed out).
    func token(for browserKey: String, session: String? = nil) -> String {
        PanelCrypto.hmacHex(key: key, "csrf|" + browserKey + "|" + (session.map { "session:" + $0 } ?? "signed-out"))
    }

    func isValid(_ formToken: String?, browserKey: String?, session: String? = nil) -> Bool {
        guard let formToken, let browserKey, PanelCrypto.isToken(browserKey) else { return false }
        return Secrets.equal(formToken, token(for: browserKey, session: session))
    }

    /// The browser's key from its cookie, when well-formed.
    static func browserKey(_ request: HTTPRequest) -> String? {
        request.cookies[cookieName].flatMap { PanelCrypto.isToken($0) ? $0 : nil }
    }

    static func cookie(_ browserKey: String) -> SetCookie {
        SetCookie(name: cookieName, value: browserKey, maxAge: 30 * 24 * 3600, sameSite: .lax)
    }
}

/// The one-time message after a POST-redirect-GET ("Saved …"), carried in a signed cookie
/// rather than server-side, for the same reason as `FormTokens`: nothing stored per visitor.
struct FlashCookie: Sendable {
    static let cookieName = "om_flash"
    /// Messages are a sentence with a product name; longer ones are cut (cookies are small).
    static let maxBytes = 1200
    let key: [UInt8]

    func cookie(_ message: String) -> SetCookie {
        var text = message
        while text.utf8.count > Self.maxBytes { text.removeLast() }
        let payload = Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return SetCookie(name: Self.cookieName, value: payload + "." + PanelCrypto.hmacHex(key: key, "flash|" + payload),
                         sameSite: .lax)
    }

    /// The message, when the cookie is intact; nil for a missing or tampered one.
    func message(_ request: HTTPRequest) -> String? {
        guard let value = request.cookies[Self.cookieName], value.utf8.count < 4096 else { return nil }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, Secrets.equal(String(parts[1]), PanelCrypto.hmacHex(key: key, "flash|" + parts[0])) else { return nil }
        var base64 = parts[0].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
