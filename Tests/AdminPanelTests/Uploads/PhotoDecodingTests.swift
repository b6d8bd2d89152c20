import CJPEG
import Foundation
import OpenMarketCore
import Testing
@testable import AdminPanel

/// The shrinker's decoders (JPEG by DCT scaling, PNG row by row): bombs, progressive and
/// interlaced files, every PNG colour type, CMYK, and files that are cut off or damaged.
@Suite struct PhotoDecodingTests {
    static func fullSize(_ size: ImageDimensions) throws(ImageShrinker.Failure) -> ImageDimensions? { size }

    static func png(_ data: Data, to target: ImageDimensions? = nil) throws -> PixelImage {
        try #require(try PNGDecoder.decode(data, target: { size throws(ImageShrinker.Failure) in target ?? size }))
    }

    static func jpeg(_ data: Data) throws -> PixelImage {
        try #require(try JPEGDecoder.decode(data, target: fullSize))
    }

    static func pixel(_ image: PixelImage, _ x: Int, _ y: Int) -> [Int] {
        let at = (y * image.width + x) * image.channels
        return image.pixels[at..<at + image.channels].map(Int.init)
    }

    // MARK: memory

    @Test func aPixelBombBecomesASmallJPEGAtTheFirstSize() throws {
        let bomb = TestPNG.bomb(width: 10_000, height: 4_000)
        #expect(bomb.count > ProductRules.maxImageBytes && bomb.count < 1_000_000)
        #expect(ImageDimensions.read(bomb) == ImageDimensions(width: 10_000, height: 4_000))
        let result = try ImageShrinker.fit(bomb, filename: "flat.png")
        #expect(result.filename == "flat.jpg" && ImageFormat.detect(result.data) == .jpeg)
        #expect(ImageDimensions.read(result.data) == ImageDimensions(width: 2_048, height: 819))
        let image = try Self.jpeg(result.data)
        #expect(Self.pixel(image, 1_000, 400).allSatisfy { $0 < 8 }, "not black")
    }

    @Test func aProgressiveJPEGOverItsMemoryIsRefusedNotDecoded() throws {
        let photo = ImageShrinkerTests.photo(width: 1_000, height: 800)
        let progressive = try ImageShrinker.encodeJPEG(photo, quality: 90, progressive: true)
        // All coefficients of 800,000 pixels (4:2:0) take about 2.4 MB until the last scan.
        #expect(throws: ImageShrinker.Failure.overMemory) {
            try JPEGDecoder.decode(progressive, memoryLimit: 1 << 20, target: Self.fullSize)
        }
        #expect(try JPEGDecoder.decode(progressive, memoryLimit: 8 << 20, target: Self.fullSize)?.width == 1_000)
        // A baseline file needs only a few rows, whatever its size.
        let baseline = try ImageShrinker.encodeJPEG(photo, quality: 90)
        #expect(try JPEGDecoder.decode(baseline, memoryLimit: 1 << 20, target: Self.fullSize)?.width == 1_000)
    }

    @Test func theDCTScaleIsTheSmallestAtLeastTheTarget() {
        let stored = ImageDimensions(width: 10_000, height: 4_000)
        // 2/8 gives 2,500 × 1,000; 1/8 (1,250) would be below 2,048.
        #expect(JPEGDecoder.scaleEighths(from: stored, toAtLeast: ImageDimensions(width: 2_048, height: 819)) == 2)
        #expect(JPEGDecoder.scaleEighths(from: stored, toAtLeast: ImageDimensions(width: 1_000, height: 400)) == 1)
        #expect(JPEGDecoder.scaleEighths(from: ImageDimensions(width: 3_000, height: 2_000),
                                         toAtLeast: ImageDimensions(width: 2_048, height: 1_365)) == 6)
        #expect(JPEGDecoder.scaleEighths(from: stored, toAtLeast: stored) == 8)
    }

    // MARK: progressive, interlaced, colour types

    @Test func aProgressiveJPEGShrinksLikeABaselineOne() throws {
        let photo = ImageShrinkerTests.photo(width: 1_200, height: 900, seed: 3)
        let baseline = try ImageShrinker.encodeJPEG(photo, quality: 95)
        let progressive = try ImageShrinker.encodeJPEG(photo, quality: 95, progressive: true)
        #expect(baseline.count > ProductRules.maxImageBytes && progressive.count > ProductRules.maxImageBytes)
        let fromBaseline = try ImageShrinker.fit(baseline, filename: "a.jpg")
        let fromProgressive = try ImageShrinker.fit(progressive, filename: "b.jpg")
        #expect(fromProgressive.data.count <= ProductRules.maxImageBytes)
        #expect(ImageDimensions.read(fromProgressive.data) == ImageDimensions.read(fromBaseline.data))
        let a = try Self.jpeg(baseline), b = try Self.jpeg(progressive)
        #expect(Self.pixel(a, 600, 450) == Self.pixel(b, 600, 450))
    }

    @Test func anInterlacedPNGDecodesToTheSamePixelsAsAPlainOne() throws {
        let gradient = { (x: Int, y: Int) in [x * 255 / 300, y * 255 / 202, (x + y) % 256] }
        let plain = TestPNG.make(width: 301, height: 203, color: .rgb, pixel: gradient)
        let interlaced = TestPNG.make(width: 301, height: 203, color: .rgb, interlaced: true, pixel: gradient)
        let full = try Self.png(interlaced)
        #expect(full.channels == 3 && Self.pixel(full, 150, 100) == gradient(150, 100))
        #expect(full.pixels == (try Self.png(plain)).pixels)
        // Area averaging does not depend on the order in which pixels come.
        let target = ImageDimensions(width: 97, height: 61)
        let smallInterlaced = try Self.png(interlaced, to: target), smallPlain = try Self.png(plain, to: target)
        #expect(smallInterlaced.width == 97 && smallInterlaced.height == 61)
        #expect(smallInterlaced.pixels == smallPlain.pixels)
        // Images smaller than the first passes (1 × 1, 3 × 2) have empty passes that libpng skips.
        for (width, height) in [(1, 1), (3, 2), (9, 1)] {
            let tiny = TestPNG.make(width: width, height: height, color: .rgb, interlaced: true, pixel: gradient)
            #expect(try Self.png(tiny).pixels == (try Self.png(TestPNG.make(width: width, height: height, color: .rgb, pixel: gradient))).pixels)
        }
    }

    @Test func aLargeInterlacedPNGIsShrunk() throws {
        var state: UInt32 = 5
        let noisy = TestPNG.make(width: 700, height: 500, color: .rgb, interlaced: true) { _, _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return [Int(state >> 24), Int((state >> 16) & 0xFF), Int((state >> 8) & 0xFF)]
        }
        #expect(noisy.count > ProductRules.maxImageBytes)
        let result = try ImageShrinker.fit(noisy, filename: "scan.png")
        #expect(result.filename == "scan.jpg" && result.data.count <= ProductRules.maxImageBytes)
    }

    @Test func theWholeTargetOfAnInterlacedPNGStaysWithinHalfTheBudget() {
        let square = PNGDecoder.fitting(ImageDimensions(width: 2_048, height: 2_048), channels: 4)
        #expect(square.width < 2_048 && square.width == square.height)
        #expect(AreaAverager.memory(for: square, channels: 4, rowsInAnyOrder: true) <= ImageShrinker.pixelBudget / 2)
        let wide = ImageDimensions(width: 2_048, height: 819)
        #expect(PNGDecoder.fitting(wide, channels: 4) == wide)
    }

    @Test func everyPNGColourTypeAndDepthBecomesRGBOrRGBA() throws {
        struct Case {
            var name: String
            var file: Data
            var expected: [Int]
        }
        let cases = [
            Case(name: "gray 8", file: TestPNG.make(width: 16, height: 8, color: .gray) { _, _ in [100] }, expected: [100, 100, 100]),
            Case(name: "gray 1", file: TestPNG.make(width: 16, height: 8, color: .gray, bitDepth: 1) { x, _ in [x % 2] },
                 expected: [0, 0, 0]),
            Case(name: "gray 16", file: TestPNG.make(width: 16, height: 8, color: .gray, bitDepth: 16) { _, _ in [0x8080] },
                 expected: [128, 128, 128]),
            Case(name: "rgb 16", file: TestPNG.make(width: 16, height: 8, color: .rgb, bitDepth: 16) { _, _ in [0xFFFF, 0, 0x8080] },
                 expected: [255, 0, 128]),
            Case(name: "palette 8", file: TestPNG.make(width: 16, height: 8, color: .palette, palette: [[10, 20, 30], [200, 100, 50]]) { _, _ in [1] },
                 expected: [200, 100, 50]),
            Case(name: "gray alpha, opaque", file: TestPNG.make(width: 16, height: 8, color: .grayAlpha) { _, _ in [50, 255] },
                 expected: [50, 50, 50]),
            Case(name: "palette 4 with tRNS", file: TestPNG.make(width: 16, height: 8, color: .palette, bitDepth: 4,
                                                                palette: [[10, 20, 30], [200, 100, 50]], transparency: [255, 0]) { x, _ in [x % 2] },
                 expected: [10, 20, 30, 255]),
            Case(name: "rgba 8", file: TestPNG.make(width: 16, height: 8, color: .rgba) { _, _ in [1, 2, 3, 128] }, expected: [1, 2, 3, 128]),
        ]
        for test in cases {
            let image = try Self.png(test.file)
            #expect(image.width == 16 && image.height == 8, "\(test.name)")
            #expect(Self.pixel(image, 0, 0) == test.expected, "\(test.name)")
        }
        // The odd columns of the 1-bit file are white, the palette file's transparent.
        #expect(Self.pixel(try Self.png(cases[1].file), 1, 0) == [255, 255, 255])
        #expect(Self.pixel(try Self.png(cases[6].file), 1, 0) == [200, 100, 50, 0])
    }

    @Test func grayAndCMYKJPEGsBecomeRGB() throws {
        let gray = try ImageShrinker.encodeJPEG(PixelImage(width: 32, height: 16, channels: 1, pixels: [UInt8](repeating: 90, count: 512)),
                                                quality: 95)
        #expect(Self.pixel(try Self.jpeg(gray), 5, 5).allSatisfy { abs($0 - 90) <= 2 })

        // Stored as Adobe writes CMYK (inverted ink: 255 is no ink): no cyan, full magenta, no yellow, no black.
        var ink = [UInt8]()
        for _ in 0..<(32 * 16) { ink += [255, 0, 255, 255] }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        #expect(om_jpeg_encode(ink, 32, 16, 4, 95, 0, &output, &length) == 0)
        let cmyk = Data(bytes: try #require(output), count: Int(length))
        free(output)
        let rgb = try Self.jpeg(cmyk)
        #expect(rgb.channels == 3)
        let magenta = Self.pixel(rgb, 10, 8)
        #expect(magenta[0] > 245 && magenta[1] < 10 && magenta[2] > 245, "\(magenta)")
    }

    // MARK: cut off and damaged

    @Test func aCutOffOrDamagedFileIsIncompleteWhateverItsSize() throws {
        let small = ImageShrinkerTests.photo(width: 300, height: 200)
        let large = ImageShrinkerTests.photo(width: 1_200, height: 900)
        var files: [(String, Data)] = []
        for progressive in [false, true] {
            files.append(("jpeg", try ImageShrinker.encodeJPEG(small, quality: 90, progressive: progressive)))
            files.append(("jpeg", try ImageShrinker.encodeJPEG(large, quality: 95, progressive: progressive)))
        }
        files.append(("png", TestPNG.make(width: 300, height: 200, color: .rgb) { x, y in [x % 256, y, 7] }))
        files.append(("png", TestPNG.make(width: 700, height: 500, color: .rgb, interlaced: true) { x, y in [x % 256, y % 256, 7] }))
        for (kind, file) in files {
            let name = "\(kind) of \(file.count) bytes"
            #expect(throws: Never.self, "\(name)") { try ImageShrinker.fit(file, filename: "whole") }
            let cut = file.prefix(file.count * 6 / 10)
            #expect(throws: ImageShrinker.Failure.incomplete, "\(name) cut at 60 %") { try ImageShrinker.fit(cut, filename: "cut") }
        }
        // A flipped byte in a PNG's pixel data fails its CRC.
        var damaged = files[4].1
        damaged[damaged.count / 2] ^= 0x55
        #expect(throws: ImageShrinker.Failure.incomplete) { try ImageShrinker.fit(damaged, filename: "damaged.png") }
        // Cut inside the header, a file is not an image at all.
        #expect(throws: ImageShrinker.Failure.unreadable) { try ImageShrinker.fit(files[0].1.prefix(100), filename: "head.jpg") }
        #expect(throws: ImageShrinker.Failure.unreadable) { try ImageShrinker.fit(files[4].1.prefix(40), filename: "head.png") }
    }

    @Test func onlyTheEndMarkerMissingIsStillComplete() throws {
        let photo = ImageShrinkerTests.photo(width: 300, height: 200)
        for progressive in [false, true] {
            let jpeg = try ImageShrinker.encodeJPEG(photo, quality: 90, progressive: progressive)
            #expect(jpeg.suffix(2) == Data([0xFF, 0xD9]))
            #expect(throws: Never.self) { try ImageShrinker.fit(jpeg.dropLast(2), filename: "no-eoi.jpg") }
        }
        let png = TestPNG.make(width: 300, height: 200, color: .rgb) { x, y in [x % 256, y, 7] }
        #expect(throws: Never.self) { try ImageShrinker.fit(png.dropLast(12), filename: "no-iend.png") }
    }
}
