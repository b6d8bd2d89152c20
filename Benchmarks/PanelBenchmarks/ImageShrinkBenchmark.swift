import Foundation
import OpenMarketCore
import Testing
@testable import AdminPanel

/// A camera photo through the shrinker, as an import or a register receives it.
@Suite struct ImageShrinkBenchmark {
    @Test func twelveMegapixelPhoto() throws {
        let camera = try ImageShrinker.encodeJPEG(Self.photo(width: 4_000, height: 3_000, seed: 7), quality: 92)
        let start = ContinuousClock.now
        let result = try ImageShrinker.fit(camera, filename: "IMG_0001.JPG")
        let elapsed = ContinuousClock.now - start
        #expect(result.data.count <= ProductRules.maxImageBytes)
        // The size the shrinker chose for this photo before it decoded row by row.
        #expect(ImageDimensions.read(result.data) == ImageDimensions(width: 1_544, height: 1_158))
        print("12 MP JPEG of \(camera.count / 1024) KB shrunk to \(result.data.count / 1024) KB in \(elapsed)")
    }

    /// A gradient with noise, which JPEG cannot squeeze much (as a real photo).
    static func photo(width: Int, height: Int, seed: UInt32) -> PixelImage {
        var state = seed
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = UInt8(truncatingIfNeeded: state >> 24) / 2
                let index = (y * width + x) * 3
                pixels[index] = UInt8(truncatingIfNeeded: x * 255 / max(1, width)) / 2 &+ noise
                pixels[index + 1] = UInt8(truncatingIfNeeded: y * 255 / max(1, height)) / 2 &+ noise
                pixels[index + 2] = noise
            }
        }
        return PixelImage(width: width, height: height, channels: 3, pixels: pixels)
    }
}
