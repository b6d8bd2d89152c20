import Foundation

/// The bytes of one response body, grown in place while a compiled template renders and then
/// handed to `Data` without a copy (`takeData`). Non-copyable: two owners of one allocation
/// would free it twice.
///
/// Raw memory on purpose: `[UInt8]` would cost a copy of the whole page into `Data` at the end (a
/// 150 KB list page per request) and a uniqueness check per append; `Data` itself appends
/// through its inline/slice representations at several times the cost. Every write goes through
/// `reserve` first; `HTMLBufferTests` covers empty buffers, growth at exact capacity and the
/// hand-over, and the ASan runs of `HTMLTemplatesTests` and the `templates` fuzz target check it.
public struct HTMLBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    public private(set) var count = 0
    private var capacity: Int

    public init(capacity: Int = 16 * 1024) {
        self.capacity = max(capacity, 64)
        // malloc, not `allocate`: `takeData` gives the block to `Data` with the `.free` deallocator.
        guard let block = malloc(self.capacity) else { fatalError("out of memory for a page of \(self.capacity) bytes") }
        // Fresh memory is bound to no type yet: bind it (assuming would be undefined behaviour).
        base = block.bindMemory(to: UInt8.self, capacity: self.capacity)
    }

    deinit { free(base) }

    /// The bytes as `Data`, sharing this allocation (no copy).
    public consuming func takeData() -> Data {
        let data = Data(bytesNoCopy: base, count: count, deallocator: .free)
        discard self
        return data
    }

    private mutating func reserve(_ extra: Int) {
        let needed = count + extra
        guard needed > capacity else { return }
        var grown = capacity * 2
        while grown < needed { grown *= 2 }
        guard let block = realloc(base, grown) else { fatalError("out of memory for a page of \(grown) bytes") }
        base = block.bindMemory(to: UInt8.self, capacity: grown)
        capacity = grown
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        // Past `count` the bytes are uninitialized: `initialize`, not `update`.
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Trusted HTML: written as it is.
    mutating func appendRaw(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Every other text: the same five entities as `HTMLEscaping`, byte for byte.
    mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                // Everything above '>' and most below it is plain: one comparison for most bytes.
                guard byte <= UInt8(ascii: ">"), let entity = Self.entity(for: byte) else { continue }
                append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                entity.withUnsafeBufferPointer { append($0) }
                runStart = index + 1
            }
            append(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
    }

    mutating func appendInt(_ number: Int) {
        // Decimal digits written backwards into a small stack buffer: no String per number.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = number.magnitude
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if number < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            append(UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    private static let amp = Array("&amp;".utf8), lt = Array("&lt;".utf8), gt = Array("&gt;".utf8)
    private static let quot = Array("&quot;".utf8), apos = Array("&#39;".utf8)

    private static func entity(for byte: UInt8) -> [UInt8]? {
        switch byte {
        case UInt8(ascii: "&"): amp
        case UInt8(ascii: "<"): lt
        case UInt8(ascii: ">"): gt
        case UInt8(ascii: "\""): quot
        case UInt8(ascii: "'"): apos
        default: nil
        }
    }
}
