/// Unguessable values and their comparison, for whatever a server hands out and later checks
/// (session ids, CSRF tokens, passwords, one-time tokens).
/// `SystemRandomNumberGenerator` draws from the kernel's CSPRNG (getrandom) on Linux.
public enum Secrets {
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// `byteCount` random bytes as lowercase hex (so 32 bytes → 64 characters).
    public static func randomHex(byteCount: Int = 32) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(byteCount * 2)
        for byte in randomBytes(byteCount) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `length` characters drawn uniformly from `alphabet` (e.g. one without look-alikes, for
    /// codes a person types).
    public static func randomString(length: Int, alphabet: String) -> String {
        let characters = Array(alphabet)
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in characters[Int.random(in: 0..<characters.count, using: &generator)] })
    }

    /// Compares without stopping at the first difference, so timing reveals nothing of a secret.
    public static func equal(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8), right = Array(b.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
        }
        return difference == 0
    }
}
