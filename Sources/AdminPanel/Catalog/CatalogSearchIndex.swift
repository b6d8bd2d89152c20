import Foundation

/// The search keys of a snapshot's products laid end to end as bytes, so a search is one pass of
/// `memchr`/`memcmp` over them instead of a `String.contains` per product (on 10,000 products
/// that was most of a search page's time).
///
/// A byte match means the same as `String.contains` when both texts are in NFC and every
/// character of them is a single scalar (then characters, scalars and UTF-8 sequences line up
/// one to one). Korean syllables and ASCII always are. A key that is not (a decomposed accent, an
/// emoji sequence, a lone jamo) is left out of the bytes and compared with `String.contains`, as
/// is every key when the search text itself is not: the answer never depends on the shortcut.
struct CatalogSearchIndex: Sendable {
    /// Each product's key followed by a 0 byte, in `products` order (empty for the keys in `others`).
    private let bytes: [UInt8]
    /// Where each product's key starts in `bytes`, plus the end.
    private let starts: [Int]
    /// The products whose keys only `String.contains` may judge.
    private let others: [Int]

    init(_ products: [CatalogProduct]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(products.reduce(0) { $0 + $1.searchKey.utf8.count + 1 })
        var starts: [Int] = []
        starts.reserveCapacity(products.count + 1)
        var others: [Int] = []
        for (index, product) in products.enumerated() {
            starts.append(bytes.count)
            if Self.isBytewise(product.searchKey) {
                bytes.append(contentsOf: product.searchKey.utf8)
            } else {
                others.append(index)
            }
            bytes.append(0)
        }
        starts.append(bytes.count)
        self.bytes = bytes
        self.starts = starts
        self.others = others
    }

    /// For each product, whether its key contains `searchKey` (already in search-key form, not empty).
    func matches(_ searchKey: String, in products: [CatalogProduct]) -> [Bool] {
        var found = [Bool](repeating: false, count: products.count)
        guard Self.isBytewise(searchKey), !searchKey.utf8.contains(0) else {
            for index in products.indices where products[index].searchKey.contains(searchKey) { found[index] = true }
            return found
        }
        let needle = Array(searchKey.utf8)
        // memchr/memcmp (vectorised in glibc) over all products' keys in one buffer: the search
        // box runs this over the whole local copy on every keystroke's request. Every offset is
        // below `haystack.count - last`; `CatalogSearchIndexTests` compare it with
        // `String.contains` on every key, Korean and hostile ones included.
        bytes.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { needle in
                guard let base = haystack.baseAddress, let wanted = needle.baseAddress else { return }
                // memchr to each place the needle's last byte occurs, memcmp for the rest. The
                // last byte, not the first: in Korean text the first byte of a syllable is one of
                // four lead bytes, found every few characters; the last is a continuation byte
                // spread over 64 values.
                let last = needle.count - 1
                var position = 0   // where a match may start at the earliest
                while position + needle.count <= haystack.count,
                      let hit = memchr(base + position + last, Int32(needle[last]), haystack.count - position - last) {
                    let start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) - last
                    if memcmp(base + start, wanted, needle.count) == 0 {
                        let product = productHolding(start)
                        found[product] = true
                        position = starts[product + 1]   // one match per product is enough
                    } else {
                        position = start + 1
                    }
                }
            }
        }

        for index in others where products[index].searchKey.contains(searchKey) { found[index] = true }
        return found
    }

    /// The product whose key holds byte `offset` (the last start at or before it).
    private func productHolding(_ offset: Int) -> Int {
        var low = 0, high = starts.count - 1   // starts[low] <= offset < starts[high]
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle } else { high = middle }
        }
        return low
    }

    /// True when a byte match in this text means a character match: NFC, one scalar per character.
    static func isBytewise(_ text: String) -> Bool {
        var quick = true
        for scalar in text.unicodeScalars {
            let value = scalar.value
            // Below U+0300 nothing combines, nor do precomposed Hangul syllables with each other.
            if value < 0x300 || (0xAC00...0xD7A3).contains(value) { continue }
            quick = false
            break
        }
        if !quick {
            let composed = text.precomposedStringWithCanonicalMapping
            guard composed.utf8.elementsEqual(text.utf8) else { return false }
        }
        return text.count == text.unicodeScalars.count
    }
}
