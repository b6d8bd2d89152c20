import Foundation
import OpenMarketCore
import Testing
import TestSupport
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

    static func photo(width: Int, height: Int, seed: UInt32) -> PixelImage {
        PixelImage(width: width, height: height, channels: 3, pixels: NoisyGradient.rgb(width: width, height: height, seed: seed))
    }
}
