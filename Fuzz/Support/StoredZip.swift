/// A zip archive of stored (uncompressed) entries, so a target can put fuzzed XML inside an
/// archive that opens, and reach the parsers behind the zip.
enum StoredZip {
    static func archive(_ entries: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var output: [UInt8] = []
        var directory: [UInt8] = []
        for entry in entries {
            let name = Array(entry.name.utf8)
            let crc = crc32(entry.bytes)
            let offset = UInt32(output.count)
            output += le32(0x0403_4B50) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21)
                + le32(crc) + le32(UInt32(entry.bytes.count)) + le32(UInt32(entry.bytes.count))
                + le16(UInt16(name.count)) + le16(0) + name + entry.bytes
            directory += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21)
                + le32(crc) + le32(UInt32(entry.bytes.count)) + le32(UInt32(entry.bytes.count))
                + le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + name
        }
        let count = UInt16(min(entries.count, 0xFFFF))
        return output + directory + le32(0x0605_4B50) + le16(0) + le16(0) + le16(count) + le16(count)
            + le32(UInt32(directory.count)) + le32(UInt32(output.count)) + le16(0)
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
