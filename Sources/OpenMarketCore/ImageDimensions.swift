import Foundation

/// An image's size in pixels as its header declares it, read without decoding any pixel.
///
/// Pixel limits are checked from the header because a decoder would have to allocate the
/// declared size first: a 100 KB PNG can declare 30000×30000 pixels (3.6 GB of RGBA). The reader
/// is pure and bounds-checked at every step, so hostile or truncated input only yields `nil`.
public struct ImageDimensions: Sendable, Equatable, CustomStringConvertible {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Saturates instead of trapping: a PNG header may declare 2³²−1 × 2³²−1 pixels, whose
    /// product does not fit an Int.
    public var pixelCount: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }
    public var description: String { "\(width)×\(height)" }

    /// The declared size of a JPEG, PNG, GIF or WebP image; `nil` when the format is not one of
    /// those or the header is truncated or malformed.
    public static func read(_ bytes: Data) -> ImageDimensions? {
        read(ByteReader(bytes))
    }

    public static func read(_ bytes: [UInt8]) -> ImageDimensions? {
        read(ByteReader(Data(bytes)))
    }

    private static func read(_ reader: ByteReader) -> ImageDimensions? {
        guard let format = ImageFormat.detect(reader) else { return nil }
        switch format {
        case .png: return png(reader)
        case .gif: return gif(reader)
        case .jpeg: return jpeg(reader)
        case .webp: return webp(reader)
        }
    }

    /// The IHDR chunk must come first: signature (8), length (4), "IHDR" (4), width, height.
    private static func png(_ r: ByteReader) -> ImageDimensions? {
        guard r.matches("IHDR", at: 12),
              let width = r.uint32BE(at: 16), let height = r.uint32BE(at: 20) else { return nil }
        return ImageDimensions(width: Int(width), height: Int(height))
    }

    /// The logical screen descriptor follows the 6-byte signature; every frame fits inside it.
    private static func gif(_ r: ByteReader) -> ImageDimensions? {
        guard let width = r.uint16LE(at: 6), let height = r.uint16LE(at: 8) else { return nil }
        return ImageDimensions(width: Int(width), height: Int(height))
    }

    /// Walks the marker segments after SOI until a start-of-frame (SOF0–SOF15 but DHT, JPG and
    /// DAC, which share the range); its payload is precision (1), height (2), width (2).
    private static func jpeg(_ r: ByteReader) -> ImageDimensions? {
        var offset = 2
        while true {
            guard r.byte(at: offset) == 0xFF else { return nil }
            // Any number of 0xFF fill bytes may precede a marker.
            while r.byte(at: offset + 1) == 0xFF { offset += 1 }
            guard let marker = r.byte(at: offset + 1) else { return nil }
            offset += 2
            switch marker {
            case 0x01, 0xD0...0xD7:  // TEM and RSTn stand alone, without a length.
                continue
            case 0xD8, 0xD9, 0xDA:   // another SOI, EOI or scan data before any frame header
                return nil
            default:
                break
            }
            guard let length = r.uint16BE(at: offset), length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 7, let height = r.uint16BE(at: offset + 3),
                      let width = r.uint16BE(at: offset + 5) else { return nil }
                return ImageDimensions(width: Int(width), height: Int(height))
            }
            offset += Int(length)
        }
    }

    /// RIFF container; the first chunk (at 12) is lossy `VP8 `, lossless `VP8L` or extended `VP8X`.
    private static func webp(_ r: ByteReader) -> ImageDimensions? {
        let data = 20  // chunk header: fourcc (4) + size (4)
        if r.matches("VP8 ", at: 12) {
            // Frame tag (3), start code 9D 01 2A, then 14-bit width and height with 2 scale bits.
            guard r.byte(at: data + 3) == 0x9D, r.byte(at: data + 4) == 0x01, r.byte(at: data + 5) == 0x2A,
                  let width = r.uint16LE(at: data + 6), let height = r.uint16LE(at: data + 8) else { return nil }
            return ImageDimensions(width: Int(width & 0x3FFF), height: Int(height & 0x3FFF))
        }
        if r.matches("VP8L", at: 12) {
            // Signature 0x2F, then width−1 and height−1 as two 14-bit fields, least significant first.
            guard r.byte(at: data) == 0x2F, let bits = r.uint32LE(at: data + 1) else { return nil }
            return ImageDimensions(width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1)
        }
        if r.matches("VP8X", at: 12) {
            // Flags (4), then canvas width−1 and height−1 as 24-bit little-endian numbers.
            guard let width = r.uint24LE(at: data + 4), let height = r.uint24LE(at: data + 7) else { return nil }
            return ImageDimensions(width: Int(width) + 1, height: Int(height) + 1)
        }
        return nil
    }
}

/// Bounds-checked reads from a byte buffer: every accessor answers `nil` past the end. It reads
/// a few dozen bytes of a header once per image, so `Data`'s own checked subscript is fast
/// enough (offsets count from the start, whatever the slice's indices).
struct ByteReader {
    let bytes: Data

    init(_ bytes: Data) { self.bytes = bytes }

    var count: Int { bytes.count }

    func byte(at offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[bytes.startIndex + offset] : nil
    }

    func matches(_ ascii: String, at offset: Int) -> Bool {
        matches(Array(ascii.utf8), at: offset)
    }

    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + expected.count <= bytes.count else { return false }
        return expected.indices.allSatisfy { bytes[bytes.startIndex + offset + $0] == expected[$0] }
    }

    /// `width` bytes from `offset` as an unsigned number, most or least significant byte first.
    private func number(at offset: Int, width: Int, bigEndian: Bool) -> UInt32? {
        guard offset >= 0, offset + width <= bytes.count else { return nil }
        var value: UInt32 = 0
        for index in 0..<width {
            let byte = UInt32(bytes[bytes.startIndex + (bigEndian ? offset + index : offset + width - 1 - index)])
            value = value << 8 | byte
        }
        return value
    }

    func uint16BE(at offset: Int) -> UInt16? { number(at: offset, width: 2, bigEndian: true).map { UInt16($0) } }
    func uint16LE(at offset: Int) -> UInt16? { number(at: offset, width: 2, bigEndian: false).map { UInt16($0) } }
    func uint24LE(at offset: Int) -> UInt32? { number(at: offset, width: 3, bigEndian: false) }
    func uint32BE(at offset: Int) -> UInt32? { number(at: offset, width: 4, bigEndian: true) }
    func uint32LE(at offset: Int) -> UInt32? { number(at: offset, width: 4, bigEndian: false) }
}
