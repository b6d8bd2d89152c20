import HTTPServer

/// Unguessable tokens for session ids, CSRF tokens, staging tokens and access codes.
enum SecureToken {
    /// `byteCount` random bytes as lowercase hex (so 32 bytes → 64 characters).
    static func make(byteCount: Int = 32) -> String { Secrets.randomHex(byteCount: byteCount) }

    /// A code a person can type: three groups of four, without look-alikes (0/O, 1/l/I).
    static func accessCode() -> String {
        (0..<3).map { _ in Secrets.randomString(length: 4, alphabet: "abcdefghjkmnpqrstuvwxyz23456789") }
            .joined(separator: "-")
    }
}
