import CJPEG
import Foundation
import OpenMarketCore

/// A JPEG decoded scanline by scanline with libjpeg-turbo, at the smallest DCT scale (n/8) that
/// is still at least the size wanted, each row averaged into that size as it comes: neither the
/// full-size image nor the scaled one is ever held whole. libjpeg's own buffers (a progressive
/// file keeps all of its coefficients until the last scan) are capped by `memoryLimit`.
enum JPEGDecoder {
    /// Decodes `data` to the size `target` chooses from the stored size (nil: decode and check
    /// only, at 1/8 scale). Throws unless every part of the picture was in the file.
    static func decode(_ data: Data, memoryLimit: Int = ImageShrinker.pixelBudget,
                       target: (ImageDimensions) throws(ImageShrinker.Failure) -> ImageDimensions?) throws(ImageShrinker.Failure) -> PixelImage? {
        let outcome = data.withUnsafeBytes { raw -> Result<PixelImage?, ImageShrinker.Failure> in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else { return .failure(.unreadable) }
            return Result { () throws(ImageShrinker.Failure) in
                try decode(base, count: raw.count, memoryLimit: memoryLimit, target: target)
            }
        }
        return try outcome.get()
    }

    private static func decode(_ bytes: UnsafePointer<UInt8>, count: Int, memoryLimit: Int,
                               target choose: (ImageDimensions) throws(ImageShrinker.Failure) -> ImageDimensions?) throws(ImageShrinker.Failure) -> PixelImage? {
        var width: Int32 = 0, height: Int32 = 0, status: Int32 = 0
        guard let reader = om_jpeg_open(bytes, UInt(count), &width, &height, &status) else { throw .overMemory }
        defer { om_jpeg_close(reader) }
        try check(status)
        let stored = ImageDimensions(width: Int(width), height: Int(height))
        try ImageShrinker.checkPixelRules(stored)
        let target = try choose(stored)

        let eighths = target.map { scaleEighths(from: stored, toAtLeast: $0) } ?? 1
        let reserved = target.map { AreaAverager.memory(for: $0, channels: 3, rowsInAnyOrder: false) } ?? 0
        var outWidth: Int32 = 0, outHeight: Int32 = 0
        try check(om_jpeg_start(reader, Int32(eighths), max(1, memoryLimit - reserved), &outWidth, &outHeight))
        let decoded = ImageDimensions(width: Int(outWidth), height: Int(outHeight))
        let averager = try target.map { target throws(ImageShrinker.Failure) in
            try AreaAverager(source: decoded, target: target, channels: 3, rowsInAnyOrder: false)
        }
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, decoded.width) * 3)
        defer { row.deallocate() }
        for y in 0..<decoded.height {
            try check(om_jpeg_read_row(reader, row))
            averager?.add(row, count: decoded.width, y: y)
        }
        try check(om_jpeg_finish(reader))
        return averager?.finish()
    }

    /// The smallest n (1…8) for which libjpeg's n/8 size (rounded up) is at least `target` both ways.
    static func scaleEighths(from stored: ImageDimensions, toAtLeast target: ImageDimensions) -> Int {
        var eighths = 1
        while eighths < 8, (stored.width * eighths + 7) / 8 < target.width || (stored.height * eighths + 7) / 8 < target.height {
            eighths += 1
        }
        return eighths
    }

    private static func check(_ status: Int32) throws(ImageShrinker.Failure) {
        switch status {
        case OM_JPEG_OK: return
        case OM_JPEG_INCOMPLETE: throw .incomplete
        case OM_JPEG_OVER_MEMORY: throw .overMemory
        default: throw .unreadable
        }
    }
}
