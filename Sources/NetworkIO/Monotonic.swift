import Foundation

/// Monotonic nanoseconds, for deadlines (never jumps with the wall clock).
@inline(__always) public func monotonicNanos() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

extension Duration {
    /// The duration in whole nanoseconds, negative durations as 0 (for deadline arithmetic).
    public var nanoseconds: UInt64 {
        let c = components
        return UInt64(max(0, c.seconds)) * 1_000_000_000 + UInt64(max(0, c.attoseconds) / 1_000_000_000)
    }
}
