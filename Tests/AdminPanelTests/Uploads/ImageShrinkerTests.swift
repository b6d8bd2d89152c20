import Foundation
import OpenMarketCore
import Testing
import TestSupport
@testable import AdminPanel

/// The panel's own photo shrinking (libjpeg-turbo, libpng): sizes, EXIF orientation, bad files.
@Suite struct ImageShrinkerTests {
    /// Noisy pixels (noise compresses badly, like a detailed photo), with a smooth gradient under it.
    static func photo(width: Int, height: Int, seed: UInt32 = 1) -> PixelImage {
        PixelImage(width: width, height: height, channels: 3, pixels: NoisyGradient.rgb(width: width, height: height, seed: seed))
    }

    /// A JPEG's pixels at full size.
    static func decoded(_ data: Data) throws -> PixelImage {
        try #require(try JPEGDecoder.decode(data, target: { size throws(ImageShrinker.Failure) in size }))
    }

    @Test func aLargeJPEGShrinksUnderTheLimitAndStaysJPEG() throws {
        let big = try ImageShrinker.encodeJPEG(Self.photo(width: 3_000, height: 2_000), quality: 95)
        #expect(big.count > ProductRules.maxImageBytes)
        let result = try ImageShrinker.fit(big, filename: "camera.JPG")
        #expect(result.data.count <= ProductRules.maxImageBytes)
        #expect(ImageFormat.detect(result.data) == .jpeg)
        #expect(result.filename == "camera.JPG")
        let image = try Self.decoded(result.data)
        #expect(max(image.width, image.height) <= ImageShrinker.maxSide)
        // The aspect ratio is kept (3:2).
        #expect(abs(Double(image.width) / Double(image.height) - 1.5) < 0.01)
    }

    @Test func aFileWithinTheLimitIsLeftAlone() throws {
        let small = try ImageShrinker.encodeJPEG(Self.photo(width: 50, height: 40), quality: 80)
        #expect(try ImageShrinker.fit(small, filename: "a.jpg") == ImageShrinker.Result(filename: "a.jpg", data: small))
    }

    @Test func exifOrientationIsAppliedToThePixels() throws {
        // Stored 40×20: left half red, right half blue. Orientation 6 means "turn 90° clockwise to show".
        var pixels = [UInt8]()
        for _ in 0..<20 { for x in 0..<40 { pixels += x < 20 ? [255, 0, 0] : [0, 0, 255] } }
        let stored = try ImageShrinker.encodeJPEG(PixelImage(width: 40, height: 20, channels: 3, pixels: pixels), quality: 95)
        let withExif = Self.insertingOrientation(6, into: stored)
        #expect(ExifOrientation.read([UInt8](withExif)) == 6)
        let result = try ImageShrinker.fit(withExif, filename: "phone.jpg", maxBytes: withExif.count - 1)
        let upright = try Self.decoded(result.data)
        #expect(upright.width == 20 && upright.height == 40)
        // Turned clockwise, the stored left (red) is now the top, the right (blue) the bottom.
        let top = Array(upright.pixels[(5 * 20 + 10) * 3..<(5 * 20 + 10) * 3 + 3])
        let bottom = Array(upright.pixels[(35 * 20 + 10) * 3..<(35 * 20 + 10) * 3 + 3])
        #expect(top[0] > 200 && top[2] < 60)
        #expect(bottom[2] > 200 && bottom[0] < 60)
    }

    @Test func corruptAndUnsupportedFilesAreRefusedWithoutCrashing() throws {
        let corrupt = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 0x42, count: 400_000)
        #expect(throws: ImageShrinker.Failure.unreadable) { try ImageShrinker.fit(corrupt, filename: "bad.jpg") }
        let gif = Data("GIF89a".utf8) + Data([1, 0, 1, 0]) + Data(count: 400_000)
        #expect(throws: ImageShrinker.Failure.unsupported) { try ImageShrinker.fit(gif, filename: "anim.gif") }
        // A huge declared size is refused before anything is decoded.
        var huge = try ImageShrinker.encodeJPEG(Self.photo(width: 8, height: 8), quality: 90)
        if let sof = [UInt8](huge).firstRange(of: [0xFF, 0xC0]) {
            let at = sof.lowerBound + 5
            huge.replaceSubrange(at..<(at + 4), with: [0xEA, 0x60, 0xEA, 0x60])  // 60,000 × 60,000
        }
        huge += Data(count: 400_000)
        #expect(throws: ImageShrinker.Failure.outsidePixelRules(ImageDimensions(width: 60_000, height: 60_000))) {
            try ImageShrinker.fit(huge, filename: "huge.jpg")
        }
    }

    @Test func anOpaquePNGBecomesJPEGAndATransparentOneStaysPNG() throws {
        let opaque = try ImageShrinker.encodePNG(Self.photo(width: 600, height: 400))
        #expect(opaque.count > ProductRules.maxImageBytes)
        let asJPEG = try ImageShrinker.fit(opaque, filename: "scan.png")
        #expect(ImageFormat.detect(asJPEG.data) == .jpeg && asJPEG.filename == "scan.jpg")
        #expect(asJPEG.data.count <= ProductRules.maxImageBytes)

        let photo = Self.photo(width: 600, height: 400)
        var rgba = [UInt8]()
        for index in 0..<(600 * 400) { rgba += photo.pixels[index * 3..<index * 3 + 3] + [index % 2 == 0 ? 255 : 128] }
        let transparent = try ImageShrinker.encodePNG(PixelImage(width: 600, height: 400, channels: 4, pixels: rgba))
        #expect(transparent.count > ProductRules.maxImageBytes)
        let asPNG = try ImageShrinker.fit(transparent, filename: "logo.png")
        #expect(ImageFormat.detect(asPNG.data) == .png && asPNG.filename == "logo.png")
        #expect(asPNG.data.count <= ProductRules.maxImageBytes)
    }

    /// A JPEG with an APP1 Exif segment (big-endian TIFF, one IFD entry: orientation) after SOI.
    static func insertingOrientation(_ orientation: UInt8, into jpeg: Data) -> Data {
        let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8,  // header, IFD at 8
                             0, 1,  // one entry
                             0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0,
                             0, 0, 0, 0]  // no next IFD
        let payload: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        var bytes = [UInt8](jpeg)
        bytes.insert(contentsOf: segment, at: 2)
        return Data(bytes)
    }
}
