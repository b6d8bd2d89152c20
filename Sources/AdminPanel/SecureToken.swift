/// Unguessable tokens for session ids, CSRF tokens, staging tokens and access codes.
/// `SystemRandomNumberGenerator` draws from the kernel's CSPRNG (getrandom) on Linux.
enum SecureToken {
    /// `byteCount` random bytes as lowercase hex (so 32 bytes → 64 characters).
    static func make(byteCount: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        text.reserveCapacity(byteCount * 2)
        let hex: [Character] = Array("0123456789abcdef")
        for _ in 0..<byteCount {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0f)])
        }
        return text
    }

    /// A code a person can type: groups of letters and digits without look-alikes (0/O, 1/l/I).
    static func accessCode() -> String {
        let alphabet: [Character] = Array("abcdefghjkmnpqrstuvwxyz23456789")
        var generator = SystemRandomNumberGenerator()
        let groups = (0..<3).map { _ in
            String((0..<4).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        }
        return groups.joined(separator: "-")
    }

    /// Compares without stopping at the first difference, so timing does not reveal a prefix.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            let p = index < x.count ? x[index] : 0
            let q = index < y.count ? y[index] : 0
            difference |= p ^ q
        }
        return difference == 0
    }
}
