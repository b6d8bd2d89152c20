/// Encodes small RGB images as PNG without any library: zlib "stored" (uncompressed) blocks,
/// Adler-32 and CRC-32 computed here. Used for the sample products of `--seed`.
enum PNGEncoder {
    struct Color: Sendable, Equatable {
        var red: UInt8, green: UInt8, blue: UInt8
    }

    /// A `width`×`height` diagonal gradient from `from` (top left) to `to` (bottom right).
    static func gradient(width: Int, height: Int, from: Color, to: Color) -> [UInt8] {
        var rows: [UInt8] = []
        rows.reserveCapacity(height * (1 + width * 3))
        let span = max(1, width + height - 2)
        for y in 0..<height {
            rows.append(0)  // filter type: none
            for x in 0..<width {
                let t = (x + y) * 255 / span
                rows.append(mix(from.red, to.red, t))
                rows.append(mix(from.green, to.green, t))
                rows.append(mix(from.blue, to.blue, t))
            }
        }
        return encode(width: width, height: height, rgbRows: rows)
    }

    /// Wraps filtered RGB rows (each starting with its filter byte) into a PNG file.
    static func encode(width: Int, height: Int, rgbRows: [UInt8]) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8 bits per sample, truecolor RGB, deflate, no filter method, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", zlibStored(rgbRows), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    private static func mix(_ a: UInt8, _ b: UInt8, _ t: Int) -> UInt8 {
        UInt8((Int(a) * (255 - t) + Int(b) * t) / 255)
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        png += bigEndian(UInt32(data.count))
        png += typeBytes
        png += data
        png += bigEndian(crc32(typeBytes + data))
    }

    /// A zlib stream of uncompressed deflate blocks (at most 65,535 bytes each).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, data.count)
            let length = UInt16(end - start)
            out.append(end == data.count ? 1 : 0)  // BFINAL on the last block, BTYPE 00 (stored)
            out += [UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff), UInt8(~length >> 8)]
            out += data[start..<end]
            start = end
        } while start < data.count
        out += bigEndian(adler32(data))
        return out
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
    }
}
