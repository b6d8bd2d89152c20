/// Decoded pixels (8 bits a channel, 3 = RGB or 4 = RGBA, rows top to bottom) and the two
/// things the shrinker does to them after decoding: turn them upright and make them smaller still.
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
    /// pixels, unlike nearest-neighbour). Never enlarges. One pass over the source, on raw buffers.
    func scaled(toWidth targetWidth: Int, height targetHeight: Int) -> PixelImage {
        let newWidth = max(1, min(width, targetWidth)), newHeight = max(1, min(height, targetHeight))
        guard newWidth != width || newHeight != height else { return self }
        let c = channels, width = width, height = height
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * c)
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: newWidth * c)
        let counts = UnsafeMutablePointer<UInt32>.allocate(capacity: newWidth)
        // Which target column each source column falls in.
        let column = UnsafeMutablePointer<Int>.allocate(capacity: width)
        defer { sums.deallocate(); counts.deallocate(); column.deallocate() }
        for x in 0..<width { column[x] = min(newWidth - 1, x * newWidth / width) }
        pixels.withUnsafeBufferPointer { sourceBuffer in
            out.withUnsafeMutableBufferPointer { targetBuffer in
                let source = sourceBuffer.baseAddress!, target = targetBuffer.baseAddress!
                var sourceRow = 0
                for y in 0..<newHeight {
                    let endRow = y == newHeight - 1 ? height : (y + 1) * height / newHeight
                    sums.initialize(repeating: 0, count: newWidth * c)
                    counts.initialize(repeating: 0, count: newWidth)
                    while sourceRow < endRow {
                        var pixel = source + sourceRow * width * c
                        for x in 0..<width {
                            let tx = column[x]
                            counts[tx] &+= 1
                            let sum = sums + tx * c
                            for k in 0..<c { sum[k] &+= UInt32(pixel[k]) }
                            pixel += c
                        }
                        sourceRow += 1
                    }
                    let row = target + y * newWidth * c
                    for x in 0..<newWidth {
                        let n = max(1, counts[x])
                        for k in 0..<c { row[x * c + k] = UInt8((sums[x * c + k] + n / 2) / n) }
                    }
                }
            }
        }
        return PixelImage(width: newWidth, height: newHeight, channels: c, pixels: out)
    }
}
