import Foundation
import Testing
@testable import OpenMarketCore

@Suite struct ImageFormatTests {
    @Test func eachAcceptedFormatByItsMagicBytes() {
        #expect(ImageFormat.detect(SampleImage.jpeg) == .jpeg)
        #expect(ImageFormat.detect(SampleImage.png) == .png)
        #expect(ImageFormat.detect(Data("GIF87a..".utf8)) == .gif)
        #expect(ImageFormat.detect(SampleImage.gif) == .gif)
        #expect(ImageFormat.detect(SampleImage.webp) == .webp)
    }

    @Test(arguments: [
        Data(), Data([0xFF, 0xD8]), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A]), Data("GIF88a".utf8),
        Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8), Data("RIFF\u{0}\u{0}\u{0}\u{0}WEB".utf8),
        SampleImage.svg, Data("<?xml version=\"1.0\"?><svg/>".utf8), Data("BM6\u{0}".utf8), Data("%PDF-1.7".utf8),
        Data([0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70, 0x68, 0x65, 0x69, 0x63]),  // HEIC
    ])
    func everythingElseIsRefused(bytes: Data) {
        #expect(ImageFormat.detect(bytes) == nil)
    }

    @Test func aSliceWithAnOffsetIsReadFromItsOwnStart() {
        let joined = Data([0x00, 0x01]) + SampleImage.png
        #expect(ImageFormat.detect(joined) == nil)
        #expect(ImageFormat.detect(joined.dropFirst(2)) == .png)
    }

    @Test func mimeTypesAndExtensions() {
        #expect(ImageFormat.allCases.map(\.mimeType) == ["image/jpeg", "image/png", "image/gif", "image/webp"])
        #expect(ImageFormat.allCases.map(\.fileExtension) == ["jpg", "png", "gif", "webp"])
    }
}
