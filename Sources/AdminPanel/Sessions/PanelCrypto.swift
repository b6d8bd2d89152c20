import CSodium
import Foundation
import HTTPServer

/// The panel's cryptography, all from libsodium (a system library): SHA-256 for storing only a
/// hash of session ids and one-time tokens, HMAC-SHA-256 for signed cookies and CSRF tokens.
/// Nothing here is hand-written cryptography; these are thin, typed calls.
enum PanelCrypto {
    /// libsodium must be initialised once before use; `sodium_init` is idempotent and thread-safe.
    static let ready: Bool = sodium_init() >= 0

    /// Lowercase hex of SHA-256(`text`): what the store keeps instead of a session id or token.
    static func sha256Hex(_ text: String) -> String {
        precondition(ready, "libsodium failed to initialise")
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        let bytes = Array(text.utf8)
        _ = crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        return hex(digest)
    }

    /// Lowercase hex of HMAC-SHA-256(`key`, `message`).
    static func hmacHex(key: [UInt8], _ message: String) -> String {
        precondition(ready, "libsodium failed to initialise")
        precondition(key.count == Int(crypto_auth_hmacsha256_KEYBYTES))
        var mac = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        let bytes = Array(message.utf8)
        _ = crypto_auth_hmacsha256(&mac, bytes, UInt64(bytes.count), key)
        return hex(mac)
    }

    static let keyByteCount = Int(crypto_auth_hmacsha256_KEYBYTES)

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func bytes(hex: String) -> [UInt8]? {
        let chars = Array(hex.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var index = 0
        while index < chars.count {
            guard let high = nibble(chars[index]), let low = nibble(chars[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    /// True when `text` looks like one of our 256-bit hex tokens (cheap shape check before any lookup).
    static func isToken(_ text: String, hexLength: Int = 64) -> Bool {
        text.utf8.count == hexLength && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
