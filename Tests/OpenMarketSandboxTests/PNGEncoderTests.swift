import Foundation
import OpenMarketCore
import Testing
@testable import OpenMarketSandbox

@Suite struct PNGEncoderTests {
    @Test func checksumsMatchKnownValues() {
        #expect(PNGEncoder.crc32(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(PNGEncoder.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }

    @Test func gradientIsAWellFormedPNG() {
        let png = PNGEncoder.gradient(width: 48, height: 48, from: .init(red: 255, green: 0, blue: 0),
                                      to: .init(red: 0, green: 0, blue: 255))
        #expect(ImageFormat.detect(Data(png)) == .png)
        // signature + IHDR(25) + IDAT(12 + zlib) + IEND(12); zlib = 2 + 5 per block + rows + 4.
        let rows = 48 * (1 + 48 * 3)
        #expect(png.count == 8 + 25 + 12 + (2 + 5 + rows + 4) + 12)
        #expect(Array(png.suffix(8)) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
    }

    @Test func largeDataSplitsIntoStoredBlocks() {
        let data = [UInt8](repeating: 7, count: 70_000)
        let zlib = PNGEncoder.zlibStored(data)
        #expect(zlib.count == 2 + 2 * 5 + 70_000 + 4)
        #expect(zlib[2] == 0)                      // first block not final
        #expect(zlib[2 + 5 + 65_535] == 1)         // second block final
    }

    @Test func samplesVaryInColourNameCurrencyDiscountAndStock() {
        let drafts = (0..<12).map { SampleProducts.draft(index: $0, vendorID: 1).draft.fields }
        #expect(Set(drafts.map(\.currency)) == ["KRW", "USD"])
        #expect(drafts.contains { $0.discountedPrice > 0 } && drafts.contains { $0.discountedPrice == 0 })
        #expect(drafts.contains { $0.stock == 0 } && drafts.contains { $0.stock > 0 })
        #expect(drafts.contains { $0.name.unicodeScalars.contains { $0.value >= 0xAC00 && $0.value <= 0xD7A3 } })
        #expect(drafts.allSatisfy { $0.discountedPrice <= $0.price && $0.price > 0 })
        #expect(SampleProducts.image(index: 0, imageIndex: 0) != SampleProducts.image(index: 1, imageIndex: 0))
    }
}
