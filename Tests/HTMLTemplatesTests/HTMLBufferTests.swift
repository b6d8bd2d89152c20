import Foundation
import Testing
@testable import HTMLTemplates

/// `HTMLBuffer` writes through a raw pointer: these cases are its boundaries (nothing written,
/// a buffer filled to exactly its capacity, the byte that makes it grow, growth by more than
/// double). Run under AddressSanitizer (`swift test --sanitize=address`) a write past the end
/// is reported even where the bytes would come out right.
@Suite struct HTMLBufferTests {
    @Test func anEmptyBufferGivesEmptyData() {
        #expect(HTMLBuffer(capacity: 0).takeData().isEmpty)
        var buffer = HTMLBuffer(capacity: 64)
        buffer.append([])
        buffer.appendEscaped("")
        buffer.appendRaw("")
        #expect(buffer.count == 0)
        #expect(buffer.takeData().isEmpty)
    }

    @Test func fillingToCapacityThenOneMoreByte() {
        var buffer = HTMLBuffer(capacity: 64)   // 64 is the smallest capacity
        let full = [UInt8](repeating: UInt8(ascii: "a"), count: 64)
        buffer.append(full)
        #expect(buffer.count == 64)
        buffer.append([UInt8(ascii: "b")])
        #expect(buffer.takeData() == Data(full + [UInt8(ascii: "b")]))
    }

    @Test func growingByMoreThanDouble() {
        var buffer = HTMLBuffer(capacity: 64)
        buffer.append([1, 2, 3])
        let big = [UInt8]((0..<1000).map { UInt8($0 % 251) })
        buffer.append(big)
        #expect(buffer.takeData() == Data([1, 2, 3] + big))
    }

    @Test func escapedTextAcrossGrowth() {
        var buffer = HTMLBuffer(capacity: 64)
        let text = String(repeating: "<a href='x'>&\"우유병\"</a>", count: 20)
        buffer.appendEscaped(text)
        #expect(String(decoding: buffer.takeData(), as: UTF8.self) == HTMLEscaping.escape(text))
    }

    @Test func integersAtTheirLimits() {
        var buffer = HTMLBuffer(capacity: 64)
        for number in [0, -1, 7, Int.max, Int.min] {
            buffer.appendInt(number)
            buffer.append([UInt8(ascii: ",")])
        }
        #expect(String(decoding: buffer.takeData(), as: UTF8.self) == "0,-1,7,\(Int.max),\(Int.min),")
    }
}
