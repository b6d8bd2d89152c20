import Testing
@testable import Workbook

@Suite struct FileSignatureTests {
    @Test func knownByTheFirstBytes() {
        #expect(FileSignature.detect([0x50, 0x4B, 0x03, 0x04, 0x14]) == .zip)
        #expect(FileSignature.detect([0x50, 0x4B, 0x05, 0x06]) == .zip)
        #expect(FileSignature.detect([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0]) == .ole)
        #expect(FileSignature.detect(Array("id,name\n".utf8)) == .other)
        #expect(FileSignature.detect([0x50, 0x4B]) == .other)
        #expect(FileSignature.detect([UInt8]()) == .other)
    }
}
