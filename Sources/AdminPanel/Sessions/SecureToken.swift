import HTTPServer

/// Unguessable tokens for session ids, browser keys, staging and invitation tokens.
enum SecureToken {
    /// `byteCount` random bytes as lowercase hex (so 32 bytes → 64 characters).
    static func make(byteCount: Int = 32) -> String { Secrets.randomHex(byteCount: byteCount) }
}
