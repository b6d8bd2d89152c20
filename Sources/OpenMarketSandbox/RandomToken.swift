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

    /// A UUID shaped like the live v2a server's product secrets, which were version 1 UUIDs of
    /// 2021–2022 (`…-11ec-…`): version 1 with the era's time-high bits, the RFC 4122 variant and
    /// a node with the multicast bit set (RFC 4122 §4.5, a random node). Every other bit is
    /// random, so it stays unguessable (109 random bits).
    static func uuidVersion1Shaped() -> String {
        var raw = Secrets.randomBytes(16)
        raw[6] = 0x11
        raw[7] = 0xEC
        raw[8] = (raw[8] & 0x3f) | 0x80
        raw[10] |= 0x01
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
