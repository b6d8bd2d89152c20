import Foundation

/// PNG files built by hand for the shrinker's tests, so every kind libpng reads can be made:
/// any colour type and bit depth, a palette, tRNS, Adam7 interlacing (image data in stored deflate
/// blocks), and bombs: a black image whose zlib stream is one literal and then fixed-Huffman
/// copies of 258 bytes, 13 bits each, so 10,000 × 4,000 pixels take about 750 KB.
enum TestPNG {
    enum ColorType: UInt8 {
        case gray = 0, rgb = 2, palette = 3, grayAlpha = 4, rgba = 6

        var samples: Int {
            switch self {
            case .gray, .palette: 1
            case .grayAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }
    }

    /// `pixel(x, y)` gives the samples of a pixel (each below 2^bitDepth; a palette index for `.palette`).
    static func make(width: Int, height: Int, color: ColorType, bitDepth: Int = 8, interlaced: Bool = false,
                     palette: [[UInt8]] = [], transparency: [UInt8]? = nil, pixel: (Int, Int) -> [Int]) -> Data {
        var raw: [UInt8] = []
        let passes: [(startX: Int, stepX: Int, startY: Int, stepY: Int)] = interlaced
            ? [(0, 8, 0, 8), (4, 8, 0, 8), (0, 4, 4, 8), (2, 4, 0, 4), (0, 2, 2, 4), (1, 2, 0, 2), (0, 1, 1, 2)]
            : [(0, 1, 0, 1)]
        for pass in passes {
            let columns = Array(stride(from: pass.startX, to: width, by: pass.stepX))
            guard !columns.isEmpty else { continue }
            for y in stride(from: pass.startY, to: height, by: pass.stepY) {
                raw.append(0)  // filter: none
                var bits = BitPacker()
                for x in columns {
                    for sample in pixel(x, y) { bits.append(sample, depth: bitDepth) }
                }
                raw += bits.finish()
            }
        }
        var file = signature
        file += chunk("IHDR", be32(width) + be32(height) + [UInt8(bitDepth), color.rawValue, 0, 0, interlaced ? 1 : 0])
        if !palette.isEmpty { file += chunk("PLTE", palette.flatMap { $0 }) }
        if let transparency { file += chunk("tRNS", transparency) }
        file += chunk("IDAT", zlibStored(raw))
        file += chunk("IEND", [])
        return Data(file)
    }

    /// A black RGB image of any size in a few hundred KB: the pixel bomb.
    static func bomb(width: Int, height: Int) -> Data {
        let rawCount = height * (1 + width * 3)  // all zero: filter bytes and pixels
        var bits = DeflateBits()
        bits.append(0b011, count: 3)  // last block, fixed Huffman codes
        bits.appendCode(0b0011_0000, length: 8)  // literal 0
        // Length 258 (code 285, eight bits) at distance 1 (code 0, five bits), reversed once.
        let copy = DeflateBits.reversed(0b1100_0101, length: 8)
        var left = rawCount - 1
        while left >= 258 {
            bits.append(copy, count: 13)
            left -= 258
        }
        for _ in 0..<left { bits.appendCode(0b0011_0000, length: 8) }
        bits.appendCode(0, length: 7)  // end of block
        let adler = UInt32(rawCount % 65_521) << 16 | 1  // of zeros: a stays 1, b adds 1 per byte
        let idat = [0x78, 0x01] + bits.finish() + be32(Int(adler))
        var file = signature
        file += chunk("IHDR", be32(width) + be32(height) + [8, ColorType.rgb.rawValue, 0, 0, 0])
        file += chunk("IDAT", idat)
        file += chunk("IEND", [])
        return Data(file)
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return be32(body.count) + typed + be32(Int(crc32(typed)))
    }

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
         UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(raw.count, start + 65_535)
            let length = end - start
            out += [end == raw.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8),
                    UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += raw[start..<end]
            start = end
        } while start < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + be32(Int(b << 16 | a))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Samples packed into bytes, most significant bits first (PNG's order), 16-bit big-endian.
    private struct BitPacker {
        var bytes: [UInt8] = []
        var current = 0
        var used = 0

        mutating func append(_ sample: Int, depth: Int) {
            if depth == 16 {
                bytes += [UInt8(sample >> 8), UInt8(sample & 0xFF)]
                return
            }
            current = current << depth | sample
            used += depth
            if used == 8 {
                bytes.append(UInt8(current))
                (current, used) = (0, 0)
            }
        }

        mutating func finish() -> [UInt8] {
            if used > 0 { bytes.append(UInt8(current << (8 - used))) }
            return bytes
        }
    }

    /// Deflate's bit order: fields least significant bit first, Huffman codes most significant first.
    private struct DeflateBits {
        var bytes: [UInt8] = []
        var buffer: UInt64 = 0
        var count = 0

        mutating func append(_ value: UInt64, count bits: Int) {
            buffer |= value << UInt64(count)
            count += bits
            while count >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                count -= 8
            }
        }

        mutating func appendCode(_ code: UInt64, length: Int) {
            append(Self.reversed(code, length: length), count: length)
        }

        static func reversed(_ code: UInt64, length: Int) -> UInt64 {
            var reversed: UInt64 = 0
            for bit in 0..<length { reversed |= ((code >> UInt64(bit)) & 1) << UInt64(length - 1 - bit) }
            return reversed
        }

        mutating func finish() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(buffer & 0xFF)) }
            return bytes
        }
    }
}
