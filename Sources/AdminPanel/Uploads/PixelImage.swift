/// Decoded pixels (8 bits a channel, 3 = RGB or 4 = RGBA, rows top to bottom) and the two
/// things the shrinker does to them: turn them upright and make them smaller.
struct PixelImage: Sendable {
    var width: Int
    var height: Int
    var channels: Int
    var pixels: [UInt8]

    /// Applies an EXIF orientation (2–8), so that orientation 1 describes the result.
    func upright(_ orientation: Int) -> PixelImage {
        guard (2...8).contains(orientation) else { return self }
        let swaps = orientation >= 5
        let newWidth = swaps ? height : width, newHeight = swaps ? width : height
        var out = [UInt8](repeating: 0, count: pixels.count)
        let c = channels
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<newHeight {
                    for x in 0..<newWidth {
                        // Where the pixel shown at (x, y) sits in the stored image.
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case 2: (sx, sy) = (width - 1 - x, y)
                        case 3: (sx, sy) = (width - 1 - x, height - 1 - y)
                        case 4: (sx, sy) = (x, height - 1 - y)
                        case 5: (sx, sy) = (y, x)
                        case 6: (sx, sy) = (y, height - 1 - x)
                        case 7: (sx, sy) = (width - 1 - y, height - 1 - x)
                        default: (sx, sy) = (width - 1 - y, x)  // 8
                        }
                        let from = (sy * width + sx) * c, to = (y * newWidth + x) * c
                        for k in 0..<c { target[to + k] = source[from + k] }
                    }
                }
            }
        }
        return PixelImage(width: newWidth, height: newHeight, channels: c, pixels: out)
    }

    /// Smaller by averaging each target pixel's box of source pixels (no aliasing from skipped
    /// pixels, unlike nearest-neighbour). Never enlarges.
    func scaled(toWidth targetWidth: Int, height targetHeight: Int) -> PixelImage {
        let newWidth = max(1, min(width, targetWidth)), newHeight = max(1, min(height, targetHeight))
        guard newWidth != width || newHeight != height else { return self }
        let c = channels
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * c)
        var sums = [UInt32](repeating: 0, count: newWidth * c)
        var counts = [UInt32](repeating: 0, count: newWidth)
        // Which target column each source column falls in.
        let column = (0..<width).map { min(newWidth - 1, $0 * newWidth / width) }
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                var sourceRow = 0
                for y in 0..<newHeight {
                    let endRow = y == newHeight - 1 ? height : (y + 1) * height / newHeight
                    for index in sums.indices { sums[index] = 0 }
                    for index in counts.indices { counts[index] = 0 }
                    while sourceRow < endRow {
                        let base = sourceRow * width * c
                        for x in 0..<width {
                            let tx = column[x]
                            counts[tx] += 1
                            for k in 0..<c { sums[tx * c + k] += UInt32(source[base + x * c + k]) }
                        }
                        sourceRow += 1
                    }
                    let rowBase = y * newWidth * c
                    for x in 0..<newWidth {
                        let n = max(1, counts[x])
                        for k in 0..<c { target[rowBase + x * c + k] = UInt8((sums[x * c + k] + n / 2) / n) }
                    }
                }
            }
        }
        return PixelImage(width: newWidth, height: newHeight, channels: c, pixels: out)
    }

    /// Whether any pixel is not fully opaque (RGBA only).
    var hasTransparency: Bool {
        guard channels == 4 else { return false }
        var index = 3
        while index < pixels.count {
            if pixels[index] != 255 { return true }
            index += 4
        }
        return false
    }

    /// RGBA → RGB (drops alpha; only for opaque images).
    var rgb: PixelImage {
        guard channels == 4 else { return self }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for index in 0..<(width * height) {
            out[index * 3] = pixels[index * 4]
            out[index * 3 + 1] = pixels[index * 4 + 1]
            out[index * 3 + 2] = pixels[index * 4 + 2]
        }
        return PixelImage(width: width, height: height, channels: 3, pixels: out)
    }
}
