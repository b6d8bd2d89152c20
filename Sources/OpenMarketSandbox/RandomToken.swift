import HTTPServer

/// The sandbox's unguessable values: product secrets, archive tokens, media names, passwords.
enum RandomToken {
    static func hex(byteCount: Int) -> String { Secrets.randomHex(byteCount: byteCount) }

    /// A random (version 4) UUID string in lowercase, e.g. a product secret or a vendor identifier.
    static func uuid() -> String {
        var raw = Secrets.randomBytes(16)
        raw[6] = (raw[6] & 0x0f) | 0x40
        raw[8] = (raw[8] & 0x3f) | 0x80
        let hex = raw.map { byte -> String in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
        let characters = Array(hex)
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }
        return groups.joined(separator: "-")
    }

    /// A password a person can type: no look-alike characters (0/O, 1/l/I).
    static func password(length: Int = 16) -> String {
        Secrets.randomString(length: length, alphabet: "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    }
}
