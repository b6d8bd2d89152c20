/// Test helpers shared by the test targets: byte splitting for the HTTP parsers (server and
/// client), child processes without Foundation's `Process` (ChildProcess.swift).

/// A deterministic generator (SplitMix64), so random splits are the same on every run.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A number in `0..<bound`.
    public mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Splits `bytes` into pieces: whole, one byte each, and random sizes.
public func splittings(of bytes: [UInt8], seeds: ClosedRange<UInt64> = 1...5, maxPiece: Int = 17) -> [[[UInt8]]] {
    var result: [[[UInt8]]] = [[bytes], bytes.map { [$0] }]
    for seed in seeds {
        var rng = SeededRandom(seed: seed)
        var pieces: [[UInt8]] = []
        var i = 0
        while i < bytes.count {
            let n = Int.random(in: 1...maxPiece, using: &rng)
            pieces.append(Array(bytes[i..<min(bytes.count, i + n)]))
            i += n
        }
        result.append(pieces)
    }
    return result
}
