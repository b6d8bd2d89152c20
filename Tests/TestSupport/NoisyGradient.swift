/// RGB pixels of a gradient with noise, which JPEG cannot squeeze much (as a real photo): the
/// photo the shrinker's tests and its benchmark both use, made the same way from the same seed.
public enum NoisyGradient {
    /// `width × height × 3` bytes, row by row.
    public static func rgb(width: Int, height: Int, seed: UInt32) -> [UInt8] {
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
        return pixels
    }
}
