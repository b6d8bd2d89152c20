import Foundation
import Testing
@testable import OpenMarketCore

/// Headers built byte by byte, as each format's specification lays them out.
enum CraftedHeader {
    static func png(width: UInt32, height: UInt32, chunk: String = "IHDR") -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D] + Array(chunk.utf8)
            + bigEndian(width, bytes: 4) + bigEndian(height, bytes: 4) + [8, 6, 0, 0, 0]
    }

    static func gif(width: UInt16, height: UInt16) -> [UInt8] {
        Array("GIF89a".utf8) + littleEndian(UInt32(width), bytes: 2) + littleEndian(UInt32(height), bytes: 2) + [0, 0, 0]
    }

    /// SOI, an APP0 segment, a DQT segment, then the frame header `sof`.
    static func jpeg(width: UInt16, height: UInt16, sof: UInt8 = 0xC0, fill: Int = 0) -> [UInt8] {
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let dqt: [UInt8] = [0xFF, 0xDB, 0x00, 0x43, 0x00] + Array(repeating: 1, count: 64)
        let frame: [UInt8] = Array(repeating: 0xFF, count: fill) + [0xFF, sof, 0x00, 0x11, 0x08]
            + bigEndian(UInt32(height), bytes: 2) + bigEndian(UInt32(width), bytes: 2) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        return [0xFF, 0xD8] + app0 + dqt + frame + [0xFF, 0xD9]
    }

    static func webpLossy(width: UInt16, height: UInt16) -> [UInt8] {
        riff("VP8 ", [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A] + littleEndian(UInt32(width), bytes: 2)
             + littleEndian(UInt32(height), bytes: 2))
    }

    static func webpLossless(width: UInt32, height: UInt32) -> [UInt8] {
        let bits = (width - 1) | (height - 1) << 14
        return riff("VP8L", [0x2F] + littleEndian(bits, bytes: 4))
    }

    static func webpExtended(width: UInt32, height: UInt32) -> [UInt8] {
        riff("VP8X", [0, 0, 0, 0] + littleEndian(width - 1, bytes: 3) + littleEndian(height - 1, bytes: 3))
    }

    private static func riff(_ fourcc: String, _ payload: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + littleEndian(UInt32(payload.count + 12), bytes: 4) + Array("WEBP".utf8)
            + Array(fourcc.utf8) + littleEndian(UInt32(payload.count), bytes: 4) + payload
    }

    private static func bigEndian(_ value: UInt32, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
    }

    private static func littleEndian(_ value: UInt32, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
    }
}

@Suite struct ImageDimensionsTests {
    @Test func eachFormatDeclaresItsSize() {
        #expect(ImageDimensions.read(CraftedHeader.png(width: 640, height: 480)) == ImageDimensions(width: 640, height: 480))
        #expect(ImageDimensions.read(CraftedHeader.gif(width: 3, height: 2)) == ImageDimensions(width: 3, height: 2))
        #expect(ImageDimensions.read(CraftedHeader.jpeg(width: 4032, height: 3024)) == ImageDimensions(width: 4032, height: 3024))
        #expect(ImageDimensions.read(CraftedHeader.webpLossy(width: 800, height: 600)) == ImageDimensions(width: 800, height: 600))
        #expect(ImageDimensions.read(CraftedHeader.webpLossless(width: 16383, height: 1)) == ImageDimensions(width: 16383, height: 1))
        #expect(ImageDimensions.read(CraftedHeader.webpExtended(width: 1 << 24, height: 2)) == ImageDimensions(width: 1 << 24, height: 2))
    }

    @Test func theBombsOfTheIssueDeclareTheirHugeSizes() {
        let png = ImageDimensions.read(CraftedHeader.png(width: 30000, height: 30000))
        #expect(png?.pixelCount == 900_000_000)
        #expect(ImageDimensions.read(CraftedHeader.jpeg(width: 65535, height: 65535))?.width == 65535)
        #expect(ImageDimensions.read(CraftedHeader.gif(width: 65535, height: 65535))?.height == 65535)
    }

    @Test func jpegFrameHeadersOfEveryKindAndFillBytes() {
        for sof: UInt8 in [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC7, 0xC9, 0xCB, 0xCD, 0xCF] {
            #expect(ImageDimensions.read(CraftedHeader.jpeg(width: 10, height: 20, sof: sof)) == ImageDimensions(width: 10, height: 20))
        }
        #expect(ImageDimensions.read(CraftedHeader.jpeg(width: 10, height: 20, fill: 5)) == ImageDimensions(width: 10, height: 20))
    }

    @Test func tablesThatShareTheFrameRangeAreSkipped() {
        // DHT (C4) sits inside C0–CF but carries no size: a reader taking it for a frame header
        // would read table bytes as the size.
        var bytes = CraftedHeader.jpeg(width: 7, height: 9)
        let dht: [UInt8] = [0xFF, 0xC4, 0x00, 0x08, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE]
        bytes.insert(contentsOf: dht, at: 2)
        #expect(ImageDimensions.read(bytes) == ImageDimensions(width: 7, height: 9))
    }

    @Test func zeroSizesAreReadAsDeclared() {
        #expect(ImageDimensions.read(CraftedHeader.png(width: 0, height: 0)) == ImageDimensions(width: 0, height: 0))
        #expect(ImageDimensions.read(CraftedHeader.gif(width: 0, height: 5))?.pixelCount == 0)
    }

    @Test func everyTruncationIsNilNeverAFault() {
        let whole = [CraftedHeader.png(width: 5, height: 5), CraftedHeader.gif(width: 5, height: 5),
                     CraftedHeader.jpeg(width: 5, height: 5), CraftedHeader.webpLossy(width: 5, height: 5),
                     CraftedHeader.webpLossless(width: 5, height: 5), CraftedHeader.webpExtended(width: 5, height: 5)]
        for bytes in whole {
            #expect(ImageDimensions.read(bytes) != nil)
            // Any cut either leaves the size fields whole (and then reads the truth) or gives nil.
            for cut in 0..<bytes.count {
                let read = ImageDimensions.read(Array(bytes.prefix(cut)))
                #expect(read == nil || read == ImageDimensions(width: 5, height: 5))
            }
            #expect(ImageDimensions.read(Array(bytes.prefix(6))) == nil)
        }
    }

    @Test func lyingOrMalformedHeadersAreNil() {
        #expect(ImageDimensions.read(CraftedHeader.png(width: 5, height: 5, chunk: "tEXt")) == nil)
        // A segment length below 2 would loop forever or step backwards.
        #expect(ImageDimensions.read([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0xFF, 0xC0]) == nil)
        // A segment claiming to run past the end of the file.
        #expect(ImageDimensions.read([0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF, 0x00]) == nil)
        // Scan data before any frame header.
        #expect(ImageDimensions.read([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08, 1, 2, 3, 4, 5, 6]) == nil)
        // A lossy WebP without its start code, and a lossless one without its signature.
        var lossy = CraftedHeader.webpLossy(width: 5, height: 5)
        lossy[23] = 0
        #expect(ImageDimensions.read(lossy) == nil)
        var lossless = CraftedHeader.webpLossless(width: 5, height: 5)
        lossless[20] = 0
        #expect(ImageDimensions.read(lossless) == nil)
        #expect(ImageDimensions.read(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPALPH".utf8)) == nil)
        #expect(ImageDimensions.read(Array("<svg width='99999'/>".utf8)) == nil)
        #expect(ImageDimensions.read([UInt8]()) == nil)
    }

    @Test func aDataSliceIsReadFromItsOwnStart() {
        let joined = Data([0x00, 0x01] + CraftedHeader.gif(width: 8, height: 9))
        #expect(ImageDimensions.read(joined) == nil)
        #expect(ImageDimensions.read(joined.dropFirst(2)) == ImageDimensions(width: 8, height: 9))
    }

    /// Found writing the fuzz target: the largest sides a PNG header can declare made
    /// `pixelCount` overflow and trap; it saturates now.
    @Test func theLargestDeclaredPNGHasACountablePixelTotal() throws {
        let huge = try #require(ImageDimensions.read(CraftedHeader.png(width: .max, height: .max)))
        #expect(huge.width == Int(UInt32.max) && huge.height == Int(UInt32.max))
        #expect(huge.pixelCount == Int.max)
        #expect(ImageDimensions(width: 3, height: 4).pixelCount == 12)
    }
}
